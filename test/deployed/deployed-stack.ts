import { readFileSync } from 'node:fs';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { generateKeyPairSync, randomBytes, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { fileURLToPath } from 'node:url';
import { externalEndpoint, startBackingStores, type BackingStores } from './backing-stores';
import { localStoreSecret } from '../../local/environment';
import { WorkflowRunner, taskStates, type AslDefinition, type TaskHandler } from '../../local/workflow-runner';
import { deployedAssembly, REGION, type DeployedAssembly } from './assembly';
import { CfnResolver } from './cfn';
import { RecordingEndpoint, type QueuedMessage } from './aws-endpoint';
import { KmsFake } from './kms-fake';
import { DeployedLambda } from './lambda-host';
import { startHttpApi } from './http-api';
import { reloadConfig } from '../../lambdas/platform/config';

/** The stand-in internet host webhook receivers live on (its certificate is a test fixture). */
export const RECEIVER_HOST = 'hook.example.test';
const RECEIVER_PUBLIC_ADDRESS = '93.184.215.14';
const FIXTURES = fileURLToPath(new URL('../integration/webhooks/fixtures/', import.meta.url));

export interface ReceivedHook {
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface DeployedStack {
  assembly: DeployedAssembly;
  resolver: CfnResolver;
  endpoint: RecordingEndpoint;
  /** Deployed functions by logical id. */
  functions: Map<string, DeployedLambda>;
  api: string;
  tableName: string;
  filesBucket: string;
  queues: QueuedMessage[];
  receiver: { received: ReceivedHook[]; answers: number[] };
  /**
   * A Cognito-shaped access token for a console user (`username` is the service's user id, as
   * docs/console.md asks the operator to set), signed with the key the HTTP API's JWT authorizer
   * trusts for the user pool; `claims` override or add claims (a foreign issuer, an expired token).
   */
  consoleToken(userId: string, claims?: Record<string, unknown>): Promise<string>;
  /** The function whose logical id starts with `prefix` (e.g. `ContactsPoolJob`). */
  fn(prefix: string): DeployedLambda;
  /** An EventBridge Scheduler invocation of the scheduled function named by its schedule. */
  runSchedule(prefix: string): Promise<unknown>;
  /** Delivers what is queued to each queue's consumer as SQS batches (its mapping's batch size), until the queues are empty. */
  drainQueue(): Promise<number>;
  /** Moves every function's clock (and the queue's) `ms` ahead of real time: time passing, without waiting. */
  advanceClock(ms: number): Promise<void>;
  /** Waits until every started workflow execution has ended. */
  settleWorkflows(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The synthesized stack running on loopback: dynalite and the embedded S3 under the template's
 * resource names, each function's bundle in its own Node 22 child with the template's environment,
 * the HTTP API from the template's routes, the upload state machine from its synthesized definition
 * (each Task invoking the bundle its resolved ARN names), SQS and Scheduler played by the test.
 */
export async function startDeployedStack(): Promise<DeployedStack> {
  const assembly = await deployedAssembly();
  const resolver = new CfnResolver(assembly.template);
  const [tableId] = resolver.ofType('AWS::DynamoDB::GlobalTable')[0]!;
  const tableName = resolver.ref(tableId);
  const buckets = resolver.ofType('AWS::S3::Bucket').map(([id]) => resolver.ref(id));
  const filesBucket = resolver.ref(resolver.ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('DataFiles'))![0]);

  const secret = localStoreSecret(null);
  // The table and files: embedded, or LocalStack's when AWS_ENDPOINT_URL names it (backing-stores.ts).
  const external = externalEndpoint(process.env.AWS_ENDPOINT_URL);
  // This process plays the operator (admin commands) and the client: it talks to the stores directly.
  process.env.AWS_REGION = REGION;
  process.env.AWS_ACCESS_KEY_ID = secret.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = secret.secretAccessKey;
  const stores: BackingStores = await startBackingStores({ tableName, buckets, secret, external });
  const dynamo = { endpoint: stores.dynamo };
  const s3 = { endpoint: stores.s3 };
  process.env.AWS_ENDPOINT_URL_DYNAMODB = dynamo.endpoint;
  process.env.AWS_ENDPOINT_URL_S3 = s3.endpoint;
  process.env.S3_FORCE_PATH_STYLE = 'true';
  process.env.TABLE_NAME = tableName;
  process.env.FILES_BUCKET = filesBucket;
  // This process seeds the table in-process: parse the configuration it has just set (the SDK
  // clients follow it).
  reloadConfig();

  const secrets = new Map<string, string>();
  for (const [id] of resolver.ofType('AWS::SecretsManager::Secret')) secrets.set(resolver.ref(id), id.startsWith('CursorKey') ? randomBytes(32).toString('base64url') : `token-${id}`);

  const queues: QueuedMessage[] = [];
  let clockOffsetMs = 0;
  const nowMs = () => Date.now() + clockOffsetMs;
  const executions = new Set<string>();
  let runner: WorkflowRunner | null = null;
  const endpoint = new RecordingEndpoint({
    dynamo: dynamo.endpoint,
    s3: s3.endpoint,
    secrets,
    kms: new KmsFake(resolver.ofType('AWS::KMS::Key').map(([id]) => resolver.getAtt(id, 'Arn'))),
    queues,
    nowMs,
    startExecution: (_arn, name, input) => {
      if (executions.has(name)) return 'exists';
      executions.add(name);
      runner!.start(name, JSON.parse(input));
      return 'started';
    },
  });

  // The webhook receiver: HTTPS with the host's certificate; answers from `answers` (then 200).
  const receiver = { received: [] as ReceivedHook[], answers: [] as number[] };
  const https: HttpsServer = createHttpsServer({ cert: readFileSync(join(FIXTURES, `${RECEIVER_HOST}.crt`)), key: readFileSync(join(FIXTURES, `${RECEIVER_HOST}.key`)) }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.received.push({ path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(receiver.answers.shift() ?? 200).end('ok');
    });
  });
  await new Promise<void>((resolve) => https.listen(0, '127.0.0.1', resolve));
  const receiverPort = (https.address() as AddressInfo).port;

  const functions = new Map<string, DeployedLambda>();
  const byArn = new Map<string, DeployedLambda>();
  for (const fn of assembly.functions) {
    const lambda = new DeployedLambda(fn, resolver, {
      endpoint: await endpoint.listen(fn.logicalId),
      credentials: secret,
      hosts: [{ name: RECEIVER_HOST, publicAddress: RECEIVER_PUBLIC_ADDRESS, port: receiverPort }],
      extraCaFile: join(FIXTURES, `${RECEIVER_HOST}.crt`),
    });
    functions.set(fn.logicalId, lambda);
    byArn.set(lambda.arn, lambda);
  }
  // Containers start in parallel (each loads a ~1 MB bundle).
  await Promise.all([...functions.values()].map((f) => f.start()));

  // The upload state machine, as synthesized: definition asset + substitutions resolved.
  const [, machine] = resolver.ofType('AWS::StepFunctions::StateMachine')[0]!;
  const machineProps = machine.Properties as { DefinitionS3Location: { Key: string }; DefinitionSubstitutions: Record<string, unknown> };
  let text = readFileSync(join(assembly.dir, `asset.${machineProps.DefinitionS3Location.Key}`), 'utf8');
  for (const [name, value] of Object.entries(machineProps.DefinitionSubstitutions)) text = text.split(`\${${name}}`).join(String(resolver.resolve(value)));
  const definition = JSON.parse(text) as AslDefinition;
  const handlers: Record<string, TaskHandler> = {};
  for (const [state, spec] of Object.entries(taskStates(definition))) {
    const resource = (spec as unknown as { Resource: string }).Resource;
    const target = byArn.get(resource);
    if (!target) throw new Error(`Task ${state} names ${resource}, which is not a deployed function`);
    handlers[state] = (input) => target.invoke(input);
  }
  const workflowErrors: unknown[] = [];
  runner = new WorkflowRunner({ definition, handlers, concurrency: 2, exclusiveStates: ['MarkFailed'], retryIntervalMs: 50, onError: (_id, error) => workflowErrors.push(error) });

  // The user pool's signing key: AWS's authorizer fetches it from the pool's JWKS.
  const issuerKeys = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const api = await startHttpApi(resolver, byArn, { issuerKey: issuerKeys.publicKey });

  const fnByPrefix = (prefix: string): DeployedLambda => {
    const found = [...functions.entries()].filter(([id]) => id.startsWith(prefix));
    if (found.length !== 1) throw new Error(`${found.length} functions match ${prefix}`);
    return found[0]![1];
  };

  // Every SQS event source mapping (webhook deliveries, spam tests): its queue and its consumer.
  const consumers = resolver.ofType('AWS::Lambda::EventSourceMapping').map(([mappingId, mapping]) => {
    const mappingProps = mapping.Properties as { EventSourceArn: unknown; FunctionName: unknown; BatchSize?: number };
    const queueArn = String(resolver.resolve(mappingProps.EventSourceArn));
    const consumerName = String(resolver.resolve(mappingProps.FunctionName));
    const fn = [...functions.values()].find((f) => f.name === consumerName);
    if (!fn) throw new Error(`${mappingId}: event source mapping names no deployed function`);
    return { queueArn, fn, batchSize: mappingProps.BatchSize ?? 10 };
  });
  const queueArnOf = (m: QueuedMessage) => `arn:aws:sqs:${REGION}:${m.queueUrl.split('/')[3]}:${m.queueUrl.split('/')[4]}`;

  return {
    assembly,
    resolver,
    endpoint,
    functions,
    api: api.url,
    tableName,
    filesBucket,
    queues,
    receiver,
    fn: fnByPrefix,
    async consoleToken(userId, claims = {}) {
      const [poolId] = resolver.ofType('AWS::Cognito::UserPool')[0]!;
      const [clientId] = resolver.ofType('AWS::Cognito::UserPoolClient')[0]!;
      const nowSeconds = Math.floor(nowMs() / 1000);
      return new SignJWT({
        sub: randomUUID(),
        token_use: 'access',
        scope: 'openid email',
        client_id: resolver.ref(clientId),
        username: userId,
        auth_time: nowSeconds,
        iss: resolver.getAtt(poolId, 'ProviderURL'),
        iat: nowSeconds,
        exp: nowSeconds + 3600,
        ...claims,
      })
        .setProtectedHeader({ alg: 'RS256', kid: 'pool-key' })
        .sign(issuerKeys.privateKey);
    },
    async runSchedule(prefix) {
      const fn = fnByPrefix(prefix);
      const schedule = resolver
        .ofType('AWS::Scheduler::Schedule')
        .find(([, s]) => String(resolver.resolve((s.Properties as { Target: { Arn: unknown } }).Target.Arn)) === fn.arn);
      if (!schedule) throw new Error(`no schedule targets ${prefix}`);
      const input = (schedule[1].Properties as { Target: { Input?: string } }).Target.Input;
      // Scheduler sends the target's Input (or an empty object) as the Lambda event.
      return fn.invoke(input ? (JSON.parse(input) as unknown) : {});
    },
    async drainQueue() {
      let delivered = 0;
      for (;;) {
        const next = consumers
          .map((c) => ({ ...c, due: queues.filter((m) => m.visibleAtMs <= nowMs() && queueArnOf(m) === c.queueArn) }))
          .find((c) => c.due.length);
        if (!next) return delivered;
        const { queueArn, fn: consumer, due } = next;
        const batch = due.slice(0, next.batchSize);
        for (const m of batch) queues.splice(queues.indexOf(m), 1);
        const event = {
          Records: batch.map((m) => ({
            messageId: m.messageId,
            receiptHandle: randomUUID(),
            body: m.body,
            attributes: { ApproximateReceiveCount: String(++m.receiveCount), SentTimestamp: String(Date.now()), SenderId: 'AROAEXAMPLE', ApproximateFirstReceiveTimestamp: String(Date.now()) },
            messageAttributes: {},
            md5OfBody: '',
            eventSource: 'aws:sqs',
            eventSourceARN: queueArn,
            awsRegion: REGION,
          })),
        };
        const result = (await consumer.invoke(event)) as { batchItemFailures?: { itemIdentifier: string }[] } | null;
        // Reported failures become visible again after the queue's visibility timeout.
        for (const failure of result?.batchItemFailures ?? []) {
          const m = batch.find((b) => b.messageId === failure.itemIdentifier);
          if (m) queues.push({ ...m, visibleAtMs: nowMs() + 360_000 });
        }
        delivered += batch.length;
      }
    },
    async advanceClock(ms) {
      clockOffsetMs += ms;
      await Promise.all([...functions.values()].map((f) => f.setClockOffset(clockOffsetMs)));
    },
    async settleWorkflows() {
      await runner!.settle();
      if (workflowErrors.length) throw new Error(`workflow errors: ${workflowErrors.map(String).join('; ')}`);
    },
    async stop() {
      await runner?.stop();
      await api.close();
      await Promise.all([...functions.values()].map((f) => f.stop()));
      await endpoint.close();
      await new Promise<void>((resolve) => {
        https.closeAllConnections();
        https.close(() => resolve());
      });
      await stores.close();
    },
  };
}
