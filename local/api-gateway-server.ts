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

export type ApiLambda = (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2>;

export interface LocalApiOptions {
  routes: readonly RouteSpec[];
  functions: Record<ApiFunctionName, ApiLambda>;
  port: number;
  host: string;
  /**
   * Bodies above this are refused with 413 before any handler runs. API Gateway's own limit is
   * 10 MB; locally the default admits a whole 100 MB CSV so the service can be tried without S3
   * staging.
   */
  maxBodyBytes: number;
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
   * Requests outside the API's routes (the console's pages, its sign-in and its API): answers and
   * returns true, or returns false to let the API answer. Called before the body is read.
   */
  prelude?: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;
}

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
    return send(res, tooLarge(options.maxBodyBytes));
  }
  // A body of unknown length may grow to the limit.
  const chunked = req.headers['content-length'] === undefined && req.headers['transfer-encoding'] !== undefined;
  const release = await budget.acquire(chunked ? options.maxBodyBytes : declared);
  try {
    await respond(options, req, res);
  } finally {
    release();
  }
}

async function respond(options: LocalApiOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const method = (req.method ?? 'GET').toUpperCase();
  if (options.prelude && (await options.prelude(req, res, url))) return;
  const body = await readBody(req, options.maxBodyBytes);
  if (!body) return send(res, tooLarge(options.maxBodyBytes));

  const { match } = matchRoute(options.routes, method, url.pathname);
  const fn: ApiFunctionName = match ? match.route.fn : 'platform';
  const event = toEvent(req, method, url, body, match ? routeKey(match.route) : '$default', match?.params);
  const context = { awsRequestId: event.requestContext.requestId, functionName: `local-${fn}` } as Context;
  // Each invocation logs in its own context, as separate Lambda invocations would.
  const result = await withLogContext(() => options.functions[fn](event, context));
  send(res, result);
}

/**
 * The body in one buffer. With a Content-Length (the HTTP parser guarantees the body is exactly
 * that long) the bytes are copied once into a buffer of that size, instead of being held twice by
 * a chunk list and its concatenation. Null when the body exceeds `max`.
 */
export async function readBody(req: IncomingMessage, max: number): Promise<Buffer | null> {
  const declared = req.headers['content-length'] === undefined ? null : Number(req.headers['content-length']);
  if (declared !== null && Number.isSafeInteger(declared)) {
    const body = Buffer.allocUnsafe(declared);
    let offset = 0;
    for await (const chunk of req) offset += (chunk as Buffer).copy(body, offset);
    return offset === declared ? body : body.subarray(0, offset);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) {
      req.destroy();
      return null;
    }
    chunks.push(chunk as Buffer);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
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

export function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | number | boolean> = { ...(result.headers ?? {}) };
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(result.statusCode ?? 200, { ...headers, 'content-length': body.length });
  res.end(body);
}

const tooLarge = (max: number): APIGatewayProxyStructuredResultV2 => ({
  statusCode: 413,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ detail: `Request body exceeds ${max} bytes` }),
});
