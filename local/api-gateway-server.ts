import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute } from '../lambdas/platform/http/match';
import { routeKey, type ApiFunctionName, type RouteSpec } from '../lambdas/platform/http/route-spec';
import { isJsonMediaType, mediaType } from '../lambdas/platform/http/content-type';

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
}

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
  const server = createServer((req, res) => {
    handle(options, req, res).catch((error: unknown) => {
      console.error('local api: unhandled', error);
      if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ detail: 'Internal server error' }) });
    });
  });
  server.requestTimeout = 0;
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

async function handle(options: LocalApiOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://local');
  const method = (req.method ?? 'GET').toUpperCase();
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > options.maxBodyBytes) {
    req.resume();
    return send(res, tooLarge(options.maxBodyBytes));
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > options.maxBodyBytes) {
      req.destroy();
      return send(res, tooLarge(options.maxBodyBytes));
    }
    chunks.push(chunk as Buffer);
  }
  const body = Buffer.concat(chunks);

  const { match } = matchRoute(options.routes, method, url.pathname);
  const fn: ApiFunctionName = match ? match.route.fn : 'platform';
  const event = toEvent(req, method, url, body, match ? routeKey(match.route) : '$default', match?.params);
  const context = { awsRequestId: event.requestContext.requestId, functionName: `local-${fn}` } as Context;
  const result = await options.functions[fn](event, context);
  send(res, result);
}

function toEvent(
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
  return {
    version: '2.0',
    routeKey: key,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: params && Object.keys(params).length ? params : undefined,
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
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
}

function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
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
