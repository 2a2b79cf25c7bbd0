import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute } from '../lambdas/platform/http/match';
import { routeKey, type ApiFunctionName, type RouteSpec } from '../lambdas/platform/http/route-spec';
import { isJsonMediaType, mediaType } from '../lambdas/platform/http/content-type';
import { attachRawBody } from '../lambdas/platform/http/raw-body';
import { withLogContext } from '../lambdas/platform/logger';
import { ByteBudget } from './byte-budget';
import { answerClientErrors } from './client-errors';

export type ApiLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface LocalApiOptions {
  routes: readonly RouteSpec[];
  functions: Record<ApiFunctionName, ApiLambda>;
  port: number;
  host: string;
  /**
   * Bodies above this are refused with 413 before any handler runs: API Gateway HTTP API's limit,
   * 10 MB (AWS_LIMITS.httpApiBodyBytes), unless raised on purpose.
   */
  maxBodyBytes: number;
  /**
   * The Lambda event a request becomes must fit in this, as in AWS (synchronous invocation payload,
   * 6 MB): binary bodies (multipart) count base64 encoded, so a multipart file over about 4.4 MB
   * is refused. Default AWS_LIMITS.lambdaPayloadBytes; raise it only on purpose.
   */
  maxPayloadBytes?: number;
  /**
   * A client must send its whole request (headers and body) within this, or the server answers 408
   * and closes the connection: a client that dribbles a body cannot hold a connection forever.
   * Default 300 s (a 110 MB body at about 3 Mbit/s).
   */
  requestTimeoutMs?: number;
  /** Headers must arrive within this (default 60 s, never more than requestTimeoutMs). */
  headersTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this (default 5 s). */
  keepAliveTimeoutMs?: number;
  /**
   * Request bodies held in memory at once, in bytes (default 2 × maxBodyBytes): beyond it requests
   * wait unread until earlier ones have been answered.
   */
  maxInFlightBodyBytes?: number;
  /**
   * How much of a streamed body past the limit is read and thrown away before its 413 goes out
   * (default 64 MB or 10 s, whichever comes first): a client still sending when the server closes
   * sees a reset, not the answer.
   */
  overLimitDiscard?: { bytes: number; ms: number };
  /**
   * Requests outside the API's routes (the console's pages, its sign-in and its API): answers and
   * returns true, or returns false to let the API answer. Called before the body is read.
   */
  prelude?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

/** The deployed API's request limits, which the local server applies by default. */
export const AWS_LIMITS = {
  /** API Gateway HTTP API: request body, 10 MB. */
  httpApiBodyBytes: 10 * 1024 * 1024,
  /** Lambda: synchronous invocation payload (the whole event), 6 MB. */
  lambdaPayloadBytes: 6 * 1024 * 1024,
};

/** Where bodies too large for API Gateway and Lambda go instead. */
export const STAGING_HINT = 'send large files through POST /api/v1/uploads/staging (a presigned S3 POST, up to 100 MB; CSV, or JSON with ?format=json), then create the upload with {"staged_upload_id": …} (docs/uploads.md)';

export const LOCAL_API_TIMEOUT_DEFAULTS = { requestTimeoutMs: 300_000, headersTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 };

export interface LocalApi {
  url: string;
  server: Server;
  close(): Promise<void>;
}

/**
 * A Node HTTP server that turns each request into the API Gateway HTTP API (payload 2.0) event the
 * deployed API would send, and calls the same handler the route table names.
 */
export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const requestTimeout = options.requestTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.requestTimeoutMs;
  const budget = new ByteBudget(options.maxInFlightBodyBytes ?? 2 * options.maxBodyBytes);
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: Math.min(options.headersTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.headersTimeoutMs, requestTimeout),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default): check often enough
      // that a short configured timeout is enforced close to its value.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor(requestTimeout / 4))),
    },
    (req, res) => {
      handle(options, budget, req, res).catch((error: unknown) => {
        // A client that went away (or was cut off by the timeouts) mid-body: nobody to answer.
        if (req.destroyed && !req.complete) return;
        console.error('local api: unhandled', error);
        if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ detail: 'Internal server error' }) });
      });
    },
  );
  answerClientErrors(server);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host === '0.0.0.0' ? '127.0.0.1' : host}:${address.port}`,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function handle(options: LocalApiOptions, budget: ByteBudget, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxBodyBytes) {
    req.resume();
    return send(res, tooLarge(`Request body of ${declared} bytes exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`));
  }
  // A body of unknown length may grow to the limit.
  const chunked = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined;
  const release = await budget.acquire(chunked ? options.maxBodyBytes : declared);
  try {
    await respond(options, req, res, release);
  } finally {
    release();
  }
}

async function respond(options: LocalApiOptions, req: IncomingMessage, res: ServerResponse, release: () => void): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const method = (req.method ?? 'GET').toUpperCase();
  if (options.prelude && (await options.prelude(req, res, url))) return;
  const body = await readBody(req, options.maxBodyBytes);
  if (!body) {
    // A streamed (chunked) body that grew past the limit: nothing of it is kept, so it holds no
    // share of the budget while the rest is discarded.
    release();
    return refuseOverLimit(req, res, tooLarge(`Request body exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`), options.overLimitDiscard);
  }

  const { match } = matchRoute(options.routes, method, url.pathname);
  const fn: ApiFunctionName = match ? match.route.fn : 'platform';
  const event = toEvent(req, method, url, body, match ? routeKey(match.route) : '$default', match?.params);
  const maxPayload = options.maxPayloadBytes ?? AWS_LIMITS.lambdaPayloadBytes;
  const payload = eventPayloadBytes(event, body);
  if (payload > maxPayload) {
    const encoding = event.isBase64Encoded ? ` (the ${body.length}-byte body is binary, so it is sent base64 encoded, 4/3 of its size)` : '';
    return send(res, tooLarge(`Request too large for a Lambda function: its event would be ${payload} bytes${encoding}, over the ${maxPayload}-byte synchronous payload limit`));
  }
  const context = { awsRequestId: event.requestContext.requestId, functionName: `local-${fn}` } as Context;
  // Each invocation logs in its own context, as separate Lambda invocations would.
  const result = await withLogContext(() => options.functions[fn](event, context));
  send(res, result);
}

/**
 * The body in one buffer. With a Content-Length (the HTTP parser guarantees the body is exactly
 * that long) the bytes are copied once into a buffer of that size, instead of being held twice by
 * a chunk list and its concatenation. Null when the body exceeds `max`: what was kept is dropped,
 * and the rest is read and discarded (see discardRest) so the 413 reaches the client instead of a
 * reset connection.
 */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && Number.isSafeInteger(declared)) {
    const body = Buffer.allocUnsafe(declared);
    let offset = 0;
    for await (const chunk of req) offset += (chunk as Buffer).copy(body, offset);
    return offset === declared ? body : body.subarray(0, offset);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= max) {
        chunks.push(chunk);
        return;
      }
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', reject);
      chunks.length = 0;
      resolve(null);
    };
    const onEnd = () => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', reject);
  });
}

/**
 * Answers a body that grew past the limit (`readBody` gave null): the rest is discarded first, then
 * the answer goes out and the connection is not reused.
 */
export async function refuseOverLimit(req: IncomingMessage, res: ServerResponse, result: APIGatewayProxyStructuredResultV2, limit = DISCARD_LIMIT): Promise<void> {
  await discardRest(req, limit);
  if (res.headersSent || res.destroyed) return;
  send(res, { ...result, headers: { ...result.headers, connection: 'close' } });
}

/** How much of an over-limit body is read and thrown away so its 413 can be answered on a clean connection. */
const DISCARD_LIMIT = { bytes: 64 * 1024 * 1024, ms: 10_000 };

/**
 * Reads the rest of a refused body without keeping it, then resolves: a server that answers and
 * closes while the client is still sending resets the connection, and the client sees the reset,
 * not the 413. Bounded: past DISCARD_LIMIT's bytes or time the answer goes out anyway.
 */
export function discardRest(req: IncomingMessage, limit = DISCARD_LIMIT): Promise<void> {
  if (req.complete || req.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let discarded = 0;
    const done = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', done);
      req.off('close', done);
      req.off('error', done);
      resolve();
    };
    const onData = (chunk: Buffer) => {
      discarded += chunk.length;
      if (discarded > limit.bytes) done();
    };
    const timer = setTimeout(done, limit.ms);
    req.on('data', onData);
    req.once('end', done);
    req.once('close', done);
    req.once('error', done);
    req.resume();
  });
}

export function toEvent(
  req: IncomingMessage,
  method: string,
  url: URL,
  body: Buffer,
  key: string,
  params: Record<string, string> | undefined,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) if (v !== undefined) headers[k] = Array.isArray(v) ? v.join(',') : v;
  headers['x-forwarded-proto'] ??= 'http';
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  // API Gateway passes text bodies as strings and base64-encodes everything else.
  const type = mediaType(headers['content-type']);
  const isText = type.startsWith('text/') || isJsonMediaType(type) || type === 'application/x-www-form-urlencoded';
  const now = new Date();
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: params && Object.keys(params).length ? params : undefined,
    isBase64Encoded: body.length > 0 && !isText,
    requestContext: {
      accountId: 'local',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'local',
      http: { method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: req.socket.remoteAddress ?? '127.0.0.1', userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey: key,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
  };
  // The string form API Gateway would send, built only if a handler reads it; the platform's
  // handlers read the attached bytes (lambdas/platform/http/raw-body.ts).
  let text: string | undefined;
  Object.defineProperty(event, 'body', {
    enumerable: true,
    configurable: true,
    get: () => (body.length ? (text ??= isText ? body.toString('utf8') : body.toString('base64')) : undefined),
  });
  attachRawBody(event, body);
  return event;
}

/**
 * The size of the event as Lambda receives it (JSON), without building the body's string form for
 * small bodies: text is JSON-escaped, binary base64 encoded.
 */
function eventPayloadBytes(event: APIGatewayProxyEventV2, body: Buffer): number {
  const { body: _body, ...rest } = event;
  const envelope = Buffer.byteLength(JSON.stringify(rest)) + 10;
  if (!body.length) return envelope;
  if (event.isBase64Encoded) return envelope + 4 * Math.ceil(body.length / 3) + 2;
  return envelope + Buffer.byteLength(JSON.stringify(body.toString('utf8')));
}

export function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | number | boolean> = { ...(result.headers ?? {}) };
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(result.statusCode ?? 200, { ...headers, 'content-length': body.length });
  res.end(body);
}

const tooLarge = (why: string): APIGatewayProxyStructuredResultV2 => ({
  statusCode: 413,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ detail: `${why}; ${STAGING_HINT}` }),
});
