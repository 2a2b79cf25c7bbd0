import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { ACCOUNT, REGION } from './assembly';
import type { KmsFake } from './kms-fake';

/** One AWS call a function made, as IAM would authorize it. */
export interface RecordedCall {
  fn: string;
  service: string;
  /** `service:Action`, e.g. `dynamodb:PutItem`. */
  action: string;
  /** ARNs the call touches (a batch call can touch several). */
  resources: string[];
  /** A DynamoDB call's partition-key values, as IAM's dynamodb:LeadingKeys holds them. */
  leadingKeys?: string[];
}

export interface QueuedMessage {
  queueUrl: string;
  body: string;
  delaySeconds: number;
  messageId: string;
  receiveCount: number;
  /** When the message becomes visible (sent time + DelaySeconds, on the stack's clock). */
  visibleAtMs: number;
}

export interface AwsFakes {
  /** dynalite's endpoint. */
  dynamo: string;
  /** The embedded S3 gateway (s3rver behind signature checks). */
  s3: string;
  /** StartExecution: the workflow engine (fake Step Functions). */
  startExecution(stateMachineArn: string, name: string, input: string): 'started' | 'exists';
  /** Secret values by ARN. */
  secrets: Map<string, string>;
  /** The template's KMS keys (signing secrets at rest). */
  kms: KmsFake;
  /** Messages sent to SQS queues, in order; the test delivers them as SQS batches. */
  queues: QueuedMessage[];
  /** The stack's clock (real time plus any offset the test moved it by). */
  nowMs(): number;
}

/**
 * The endpoint every deployed function's SDK talks to (AWS_ENDPOINT_URL): one loopback port per
 * function, so each call is attributed to the function that made it. It records service, action
 * and resources, then forwards DynamoDB to dynalite and S3 to the embedded store unchanged (the
 * signature still verifies), and answers SQS, Step Functions, Secrets Manager and KMS itself.
 */
export class RecordingEndpoint {
  readonly calls: RecordedCall[] = [];
  readonly unknown: string[] = [];
  private readonly servers: Server[] = [];

  constructor(private readonly fakes: AwsFakes) {}

  /** A new port for `fn`; returns its URL. */
  async listen(fn: string): Promise<string> {
    const server = createServer((req, res) => {
      this.handle(fn, req, res).catch((error: unknown) => {
        this.unknown.push(`${fn}: ${(error as Error).message}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ __type: 'InternalFailure', message: (error as Error).message }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.servers.push(server);
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  async close(): Promise<void> {
    await Promise.all(
      this.servers.map(
        (s) =>
          new Promise<void>((resolve) => {
            s.closeAllConnections();
            s.close(() => resolve());
          }),
      ),
    );
  }

  private async handle(fn: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const service = signingService(req);
    const target = String(req.headers['x-amz-target'] ?? '');
    if (service === 's3') return this.s3(fn, req, res);
    const body = await readAll(req);
    const json = body.length ? (JSON.parse(body.toString('utf8')) as Record<string, unknown>) : {};
    const operation = target.split('.').pop() ?? '';
    switch (service) {
      case 'dynamodb': {
        this.record(fn, 'dynamodb', operation, dynamoResources(json), leadingKeys(json));
        return forward(this.fakes.dynamo, req, body, res);
      }
      case 'sqs':
        return this.sqs(fn, operation, json, res);
      case 'states':
        return this.states(fn, operation, json, res);
      case 'secretsmanager':
        return this.secrets(fn, operation, json, res);
      case 'kms':
        return this.kms(fn, operation, json, res);
      default:
        this.unknown.push(`${fn}: ${service} ${target} ${req.method} ${req.url}`);
        this.record(fn, service, operation || `${req.method}`, ['*']);
        res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ __type: 'UnknownOperationException', message: `${service} is not modelled here` }));
    }
  }

  private record(fn: string, service: string, operation: string, resources: string[], keys?: string[]): void {
    this.calls.push({ fn, service, action: `${service}:${operation}`, resources, ...(keys ? { leadingKeys: keys } : {}) });
  }

  private s3(fn: string, req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://s3');
    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    const q = url.searchParams;
    const method = req.method ?? 'GET';
    const objectArn = (k: string) => `arn:aws:s3:::${bucket}/${k}`;
    const bucketArn = `arn:aws:s3:::${bucket}`;
    let action: string;
    const resource = key ? objectArn(key) : bucketArn;
    if (!key) {
      if (method === 'POST') action = 'PutObject'; // browser form upload; the key is in the form (recorded below)
      else if (method === 'GET' && q.has('uploads')) action = 'ListBucketMultipartUploads';
      else if (method === 'GET') action = 'ListBucket';
      else if (method === 'HEAD') action = 'ListBucket';
      else action = `${method}Bucket`;
    } else if (q.has('uploadId') && method === 'DELETE') action = 'AbortMultipartUpload';
    else if (q.has('uploadId') && method === 'GET') action = 'ListMultipartUploadParts';
    else if (method === 'GET' || method === 'HEAD') action = 'GetObject';
    else if (method === 'PUT' || method === 'POST') action = 'PutObject';
    else if (method === 'DELETE') action = 'DeleteObject';
    else action = method;
    const copySource = req.headers['x-amz-copy-source'];
    if (typeof copySource === 'string') this.record(fn, 's3', 'GetObject', [`arn:aws:s3:::${decodeURIComponent(copySource.replace(/^\//, '').split('?')[0]!)}`]);
    if (!key && method === 'POST') {
      // A presigned POST: IAM authorizes the signer's s3:PutObject on the form's key.
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.length < 4 && chunks.push(c));
      const proxied = proxyStream(this.fakes.s3, req, res);
      void proxied.then(() => {
        const prefix = Buffer.concat(chunks).toString('latin1');
        const formKey = /name="key"\r\n\r\n([^\r]*)\r\n/.exec(prefix)?.[1] ?? '*';
        this.record(fn, 's3', 'PutObject', [objectArn(formKey)]);
      });
      return;
    }
    this.record(fn, 's3', action, [resource]);
    void proxyStream(this.fakes.s3, req, res);
  }

  private sqs(fn: string, operation: string, json: Record<string, unknown>, res: ServerResponse): void {
    const queueUrl = String(json.QueueUrl ?? '');
    const name = queueUrl.split('/').pop() ?? '';
    // IAM authorizes a batch under sqs:SendMessage (there is no sqs:SendMessageBatch action).
    this.record(fn, 'sqs', operation === 'SendMessageBatch' ? 'SendMessage' : operation, [`arn:aws:sqs:${REGION}:${ACCOUNT}:${name}`]);
    const reply = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
    if (operation === 'SendMessage') {
      const delay = Number(json.DelaySeconds ?? 0);
      if (delay > 900) return reply(400, { __type: 'com.amazonaws.sqs#InvalidParameterValue', message: 'DelaySeconds must be >= 0 and <= 900' });
      const messageId = randomUUID();
      const body = String(json.MessageBody);
      this.fakes.queues.push({ queueUrl, body, delaySeconds: delay, messageId, receiveCount: 0, visibleAtMs: this.fakes.nowMs() + delay * 1000 });
      return reply(200, { MessageId: messageId, MD5OfMessageBody: md5(body) });
    }
    if (operation === 'SendMessageBatch') {
      const entries = (json.Entries as { Id: string; MessageBody: string; DelaySeconds?: number }[]) ?? [];
      const successful = entries.map((e) => {
        const messageId = randomUUID();
        const delay = Number(e.DelaySeconds ?? 0);
        this.fakes.queues.push({ queueUrl, body: e.MessageBody, delaySeconds: delay, messageId, receiveCount: 0, visibleAtMs: this.fakes.nowMs() + delay * 1000 });
        return { Id: e.Id, MessageId: messageId, MD5OfMessageBody: md5(e.MessageBody) };
      });
      return reply(200, { Successful: successful, Failed: [] });
    }
    reply(400, { __type: 'com.amazonaws.sqs#UnsupportedOperation', message: `${operation} is not modelled here` });
  }

  private states(fn: string, operation: string, json: Record<string, unknown>, res: ServerResponse): void {
    const arn = String(json.stateMachineArn ?? '');
    this.record(fn, 'states', operation, [arn]);
    const reply = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(body));
    if (operation !== 'StartExecution') return reply(400, { __type: 'UnknownOperationException', message: operation });
    const name = String(json.name ?? randomUUID());
    const outcome = this.fakes.startExecution(arn, name, String(json.input ?? '{}'));
    if (outcome === 'exists') return reply(400, { __type: 'ExecutionAlreadyExists', message: `Execution Already Exists: '${name}'` });
    reply(200, { executionArn: `${arn.replace(':stateMachine:', ':execution:')}:${name}`, startDate: Date.now() / 1000 });
  }

  private secrets(fn: string, operation: string, json: Record<string, unknown>, res: ServerResponse): void {
    const id = String(json.SecretId ?? '');
    this.record(fn, 'secretsmanager', operation, [id]);
    const reply = (status: number, body: unknown): void => void res.writeHead(status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(body));
    const value = this.fakes.secrets.get(id);
    if (operation !== 'GetSecretValue') return reply(400, { __type: 'UnknownOperationException', message: operation });
    if (value === undefined) return reply(400, { __type: 'ResourceNotFoundException', message: "Secrets Manager can't find the specified secret." });
    reply(200, { ARN: id, Name: id.split(':').pop(), SecretString: value, VersionId: 'v1', VersionStages: ['AWSCURRENT'], CreatedDate: Date.now() / 1000 });
  }

  private kms(fn: string, operation: string, json: Record<string, unknown>, res: ServerResponse): void {
    // IAM authorizes a Decrypt on the key the blob names (and the KeyId, when given, must be it).
    const key = operation === 'Decrypt' ? this.fakes.kms.blobKeyArn(json.CiphertextBlob) : this.fakes.kms.keyArnOf(json.KeyId);
    this.record(fn, 'kms', operation, [key ?? String(json.KeyId ?? '*')]);
    const answer = this.fakes.kms.handle(operation, json);
    res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer.body));
  }
}

const md5 = (text: string): string => createHash('md5').update(text, 'utf8').digest('hex');

/** The service a request was signed for: the credential scope of its signature. */
function signingService(req: IncomingMessage): string {
  const auth = String(req.headers.authorization ?? '');
  const scope = /Credential=[^/]+\/\d{8}\/[^/]+\/([^/]+)\/aws4_request/.exec(auth)?.[1];
  if (scope) return scope;
  const query = new URL(req.url ?? '/', 'http://x').searchParams.get('X-Amz-Credential');
  if (query) return query.split('/')[3] ?? 'unknown';
  // Unsigned: a browser form POST to S3 carries its signature in the form.
  return 's3';
}

function dynamoResources(json: Record<string, unknown>): string[] {
  const arn = (table: string, index?: unknown) => `arn:aws:dynamodb:${REGION}:${ACCOUNT}:table/${table}${typeof index === 'string' ? `/index/${index}` : ''}`;
  if (typeof json.TableName === 'string') return [arn(json.TableName, json.IndexName)];
  if (json.RequestItems && typeof json.RequestItems === 'object') return Object.keys(json.RequestItems).map((t) => arn(t));
  if (Array.isArray(json.TransactItems)) {
    return (json.TransactItems as Record<string, { TableName: string }>[]).map((item) => arn(Object.values(item)[0]!.TableName));
  }
  return ['*'];
}

type Attr = { S?: string };
type Keyed = Record<string, Attr>;

/**
 * The partition-key values of a DynamoDB request, as IAM's dynamodb:LeadingKeys holds them: the
 * key of a single-item call, every key of a batch, the equality on the partition key of a Query
 * (the index's for a Query on an index). A request this cannot read yields `['?']`, which no
 * grant matches, so an unread shape fails the walk instead of passing it.
 */
export function leadingKeys(json: Record<string, unknown>): string[] {
  const pkOf = (item: Keyed | undefined): string => item?.pk?.S ?? '?';
  if (json.KeyConditionExpression !== undefined) return [queryPartitionKey(json)];
  if (json.Key) return [pkOf(json.Key as Keyed)];
  if (json.Item) return [pkOf(json.Item as Keyed)];
  if (json.RequestItems && typeof json.RequestItems === 'object') {
    return Object.values(json.RequestItems as Record<string, unknown>).flatMap((entry) =>
      Array.isArray(entry)
        ? (entry as { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } }[]).map((w) => pkOf(w.PutRequest?.Item ?? w.DeleteRequest?.Key))
        : ((entry as { Keys?: Keyed[] }).Keys ?? []).map(pkOf),
    );
  }
  return ['?'];
}

/** `pk = :v` (or `#n = :v`, either side) in a KeyConditionExpression, for the table's or the index's partition key. */
function queryPartitionKey(json: Record<string, unknown>): string {
  const attribute = typeof json.IndexName === 'string' ? `${json.IndexName}pk` : 'pk';
  const names = (json.ExpressionAttributeNames ?? {}) as Record<string, string>;
  const values = (json.ExpressionAttributeValues ?? {}) as Record<string, Attr>;
  const name = (token: string) => names[token] ?? token;
  for (const clause of String(json.KeyConditionExpression).split(/\s+and\s+/i)) {
    const m = /^\(?\s*([#:\w]+)\s*=\s*([#:\w]+)\s*\)?$/.exec(clause.trim());
    if (!m) continue;
    const [left, right] = [m[1]!, m[2]!];
    if (name(left) === attribute && right.startsWith(':')) return values[right]?.S ?? '?';
    if (name(right) === attribute && left.startsWith(':')) return values[left]?.S ?? '?';
  }
  return '?';
}

async function readAll(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function forward(target: string, req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> {
  return new Promise((resolve, reject) => {
    const url = new URL(req.url ?? '/', target);
    const out = httpRequest(url, { method: req.method, headers: req.headers }, (upstream) => {
      res.writeHead(upstream.statusCode ?? 500, upstream.headers);
      upstream.pipe(res);
      upstream.on('end', () => resolve());
    });
    out.on('error', reject);
    out.end(body);
  });
}

/** Streams a request through unchanged (Host included, so its signature still verifies). */
function proxyStream(target: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const url = new URL(req.url ?? '/', target);
    const out = httpRequest(url, { method: req.method, headers: req.headers }, (upstream) => {
      res.writeHead(upstream.statusCode ?? 500, upstream.headers);
      upstream.pipe(res);
      upstream.on('end', () => resolve());
      upstream.on('error', () => resolve());
    });
    out.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(error));
      resolve();
    });
    req.pipe(out);
  });
}
