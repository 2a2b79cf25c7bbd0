import { verifyRequest, type SigningSecret } from './sigv4';
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { createRequire } from 'node:module';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../lambdas/platform/table-definition';
import { crashPoint } from '../lambdas/platform/crash-point';
import { logger } from '../lambdas/platform/logger';
import { checkTableReadable, rebuildIndexes } from './embedded-dynamodb-integrity';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

type IndexWriteDone = (error?: Error | null) => void;
interface DynaliteDb {
  updateIndexes(store: unknown, table: unknown, existing: unknown, item: Record<string, { S?: string }> | null, cb: IndexWriteDone): void;
}

/**
 * A crash point inside a storage write: dynalite has written an item's index entries and not yet
 * the item. Named by the item's entity, and by its entity and status:
 * `storage.between-index-and-item:Upload`, `storage.between-index-and-item:Upload:ready_for_processing`.
 */
function hookIndexWrites(): void {
  const db = require('dynalite/db') as DynaliteDb & { crashHooked?: boolean };
  if (db.crashHooked) return;
  db.crashHooked = true;
  const updateIndexes = db.updateIndexes.bind(db);
  db.updateIndexes = (store, table, existing, item, cb) =>
    updateIndexes(store, table, existing, item, (error) => {
      const entity = item?.entity?.S;
      if (!error && entity) {
        crashPoint(`storage.between-index-and-item:${entity}`);
        if (item.status?.S) crashPoint(`storage.between-index-and-item:${entity}:${item.status.S}`);
      }
      cb(error);
    });
}

/** Written when the store closed cleanly, removed when it opens: missing at a start means the last stop was not clean. */
const cleanStopMarker = (dir: string): string => `${dir}.closed-cleanly`;

/**
 * dynalite on loopback; persisted under `dir` (LevelDB) or in memory when `dir` is null. After a
 * stop that was not clean (a kill -9, a crash, a power cut), every index is rebuilt from the items
 * before the store answers (embedded-dynamodb-integrity.ts). Files LevelDB finds damaged refuse the
 * start (DamagedTableError) before anything in the folder is changed.
 */
export async function startEmbeddedDynamo(dir: string | null, options: { secret?: SigningSecret; port?: number } = {}): Promise<EmbeddedDynamo> {
  const port = options.port ?? 0;
  hookIndexWrites();
  if (dir) {
    mkdirSync(dir, { recursive: true });
    // Damage refuses the start before the clean-stop mark is touched: the folder is left as found.
    if (readdirSync(dir).length > 0) await checkTableReadable(dir);
    if (existsSync(cleanStopMarker(dir))) rmSync(cleanStopMarker(dir));
    else if (readdirSync(dir).length > 0) {
      const repair = await rebuildIndexes(dir);
      if (repair.removed + repair.added > 0) logger.warn('embedded table: indexes rebuilt from items after an unclean stop', { ...repair });
    }
  }
  const server = dynalite({ path: dir ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  if (options.secret) requireSignatures(server, options.secret);
  // Never close an idle keep-alive connection: with Node's 5 s default, a loaded machine let the
  // server close a socket as the SDK sent the next request on it (ECONNRESET). The SDK retries that
  // only while its retry quota lasts, so a burst of them (2,000 concurrent rate-limit writes beside
  // a second copy of the suite) reached callers as store errors. Only our own clients connect, each
  // with a bounded socket pool.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    close: () =>
      new Promise<void>((resolve) => {
        // Idle connections never time out (above), so close() would wait for clients that keep
        // theirs open: from now on a connection closes as soon as its request is answered, and the
        // idle ones now. Requests still in flight finish first (dynalite closes its database when
        // the server closes; cutting them gave an uncaught "Database is closed").
        server.keepAliveTimeout = 1;
        server.close((error?: Error) => {
          if (dir && !error) writeFileSync(cleanStopMarker(dir), '');
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}

/** DynamoDB's own limit on a request body; dynalite answers 413 past it, so nothing larger is held here. */
const MAX_REQUEST_BYTES = 16 * 1024 * 1024;

/**
 * dynalite checks that a request is signed, never with what: any local user who found its port
 * could write a balance. So every request must carry an AWS Signature Version 4 made with the data
 * folder's secret (local/environment.ts, readable by its owner only), its body hashed here (the
 * SDK's DynamoDB requests declare no payload hash); dynalite then reads the same bytes.
 */
function requireSignatures(server: Server, secret: SigningSecret): void {
  const [dynaliteHandler] = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_REQUEST_BYTES) chunks.push(chunk);
    });
    req.on('error', () => res.destroy());
    req.on('end', () => {
      if (size > MAX_REQUEST_BYTES) return refuse(res, 413, 'com.amazon.coral.service#SerializationException', 'Request body over 16 MB');
      const body = Buffer.concat(chunks, size);
      const verdict = verifyRequest({ method: req.method ?? 'POST', url: req.url ?? '/', headers: req.headers }, secret, Date.now(), { service: 'dynamodb', payloadHash: createHash('sha256').update(body).digest('hex') });
      if (!verdict.ok) return refuse(res, 400, verdict.code === 'InvalidAccessKeyId' ? 'com.amazon.coral.service#UnrecognizedClientException' : 'com.amazon.coral.service#InvalidSignatureException', verdict.message);
      // dynalite reads the request as a stream (its data and end events): the same bytes again.
      const replay = Object.assign(Readable.from(size ? [body] : []), { headers: req.headers, method: req.method, url: req.url });
      dynaliteHandler!(replay as unknown as IncomingMessage, res);
    });
  });
}

function refuse(res: ServerResponse, status: number, type: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ __type: type, message }));
}

/** Creates the table from the shared definition unless it exists (any DynamoDB-compatible endpoint); signs with `credentials`, else the environment's. */
export async function ensureTable(endpoint: string, tableName: string, credentials?: SigningSecret): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: process.env.AWS_REGION ?? 'us-east-1', credentials });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
    // A new table is CREATING for a moment, and a write to it then is ResourceNotFound: answer once it is ACTIVE.
    const until = Date.now() + 30_000;
    for (;;) {
      const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
      if (Table?.TableStatus === 'ACTIVE') break;
      if (Date.now() > until) throw new Error(`table ${tableName} is still ${Table?.TableStatus ?? 'missing'} 30 s after it was created`);
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    client.destroy();
  }
}
