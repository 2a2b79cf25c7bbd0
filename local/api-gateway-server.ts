import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { matchRoute, type RouteMatch } from '../lambdas/platform/http/match';
import { routeKey, type ApiFunctionName, type RouteSpec } from '../lambdas/platform/http/route-spec';
import { isJsonMediaType, mediaType } from '../lambdas/platform/http/content-type';
import { attachRawBody } from '../lambdas/platform/http/raw-body';
import { logger, withLogContext } from '../lambdas/platform/logger';
import { answerClientErrors } from './client-errors';
import { checkRateRule, type BodyRateRule } from './body-rate';
import { send, serverAnswer } from './http-answers';
import { apiKeyAdmission, type Admission, type Admit } from './request-admission';
import { declaredLength, hasBody, RequestBodies } from './request-bodies';

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
   * 6 MB): binary bodies (multipart) count base64 encoded, so a multipart body over about 4.7 MB
   * is refused (measured: docs/uploads.md, Large files). Default AWS_LIMITS.lambdaPayloadBytes;
   * raise it only on purpose.
   */
  maxPayloadBytes?: number;
  /**
   * A client must send its whole request (headers and body) within this, or Node answers 408 and
   * closes the connection while the client may still be writing (it then sees a reset). Off by
   * default (0): a body is held to minBodyRate instead, which answers a slow one with 408 after
   * draining it, and never cuts a client that keeps sending (a 100 MB body on a slow link).
   */
  requestTimeoutMs?: number;
  /** Headers must arrive within this (default 60 s, never more than a non-zero requestTimeoutMs). */
  headersTimeoutMs?: number;
  /** An idle keep-alive connection is closed after this (default 5 s). */
  keepAliveTimeoutMs?: number;
  /**
   * Request bodies one organization holds in memory at once, in bytes (default 2 × maxBodyBytes):
   * beyond it that organization's requests wait unread, in arrival order, until its earlier ones
   * have been answered. Other organizations' requests do not wait for it.
   */
  maxInFlightBodyBytes?: number;
  /** The same for requests not authenticated by an API key (default 1 MiB, BODY_DEFAULTS). */
  anonymousInFlightBodyBytes?: number;
  /** Bodies of everyone at once (default 4 × maxInFlightBodyBytes): the server's memory bound. */
  totalInFlightBodyBytes?: number;
  /** A body arriving slower than this is cut with 408 (default 1 KiB/s over every 10 s, BODY_DEFAULTS). */
  minBodyRate?: BodyRateRule;
  /**
   * After an answer given before a body was read whole (413, a refused key, ...): how much more of
   * it is read and thrown away so a client still sending reads the answer instead of a reset
   * (default 128 MiB or 60 s, BODY_DEFAULTS); past it the connection is closed.
   */
  overLimitDiscard?: { bytes: number; ms: number };
  /** How long a connection being closed still reads what its client sends (default 2 s). */
  lingerMs?: number;
  /**
   * Who a request with a body is, checked before the body is read: the API's own API key check by
   * default (request-admission.ts). Tests of the server alone give their own.
   */
  admit?: Admit;
  /**
   * Requests outside the API's routes (the console's pages, its sign-in and its API): answers and
   * returns true, or returns false to let the API answer. Called before the body is read; reads
   * bodies through `bodies`, so they count against the same budgets and rules.
   */
  prelude?: (req: IncomingMessage, res: ServerResponse, url: URL, bodies: RequestBodies) => Promise<boolean>;
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

export const LOCAL_API_TIMEOUT_DEFAULTS = { requestTimeoutMs: 0, headersTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000 };

/** The body rules' defaults (docs/operations.md, Request bodies on the local server, quotes them). */
export const BODY_DEFAULTS = {
  anonymousInFlightBodyBytes: 1024 * 1024,
  /** Organizations at their full budget the total holds. */
  organizationsAtFullBudget: 4,
  minBodyRate: { bytesPerSecond: 1024, windowMs: 10_000 },
  /** Covers the largest body a client legitimately sends anywhere (a 100 MB staged file and its form). */
  drain: { bytes: 128 * 1024 * 1024, ms: 60_000 },
  lingerMs: 2_000,
};

export interface LocalApi {
  url: string;
  server: Server;
  /** How it reads bodies (its budgets: tests look at what is held). */
  bodies: RequestBodies;
  close(): Promise<void>;
}

/**
 * A Node HTTP server that turns each request into the API Gateway HTTP API (payload 2.0) event the
 * deployed API would send, and calls the same handler the route table names.
 */
export async function startLocalApi(options: LocalApiOptions): Promise<LocalApi> {
  const requestTimeout = options.requestTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.requestTimeoutMs;
  const bodies = requestBodies(options);
  const admit = options.admit ?? apiKeyAdmission;
  const listener = (req: IncomingMessage, res: ServerResponse) => {
    handle(options, bodies, admit, req, res).catch((error: unknown) => {
      // A client that went away (or was cut off by the timeouts) mid-body: nobody to answer.
      if (req.destroyed && !req.complete) return;
      logger.error('local api: a request failed outside its handler; answered 500', { method: req.method, path: req.url?.split('?')[0], error: error as Error });
      if (!res.headersSent) send(res, { statusCode: 500, body: JSON.stringify({ detail: 'Internal server error' }) });
    });
  };
  const server = createServer(
    {
      requestTimeout,
      headersTimeout: requestTimeout > 0 ? Math.min(options.headersTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.headersTimeoutMs, requestTimeout) : (options.headersTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.headersTimeoutMs),
      keepAliveTimeout: options.keepAliveTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.keepAliveTimeoutMs,
      // Node checks the two timeouts above on this interval (30 s by default): check often enough
      // that a short configured timeout is enforced close to its value.
      connectionsCheckingInterval: Math.max(50, Math.min(30_000, Math.floor((requestTimeout || (options.headersTimeoutMs ?? LOCAL_API_TIMEOUT_DEFAULTS.headersTimeoutMs)) / 4))),
    },
    listener,
  );
  // Node would answer `Expect: 100-continue` itself before any check; the body is asked for only
  // once the request is admitted (RequestBodies.proceed), so a refused one is never sent.
  server.on('checkContinue', (req: IncomingMessage, res: ServerResponse) => {
    bodies.expectsContinue(req);
    listener(req, res);
  });
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
    bodies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function requestBodies(options: LocalApiOptions): RequestBodies {
  const perOrganization = options.maxInFlightBodyBytes ?? 2 * options.maxBodyBytes;
  return new RequestBodies(
    {
      maxBodyBytes: options.maxBodyBytes,
      budgets: {
        perOrganization,
        anonymous: options.anonymousInFlightBodyBytes ?? BODY_DEFAULTS.anonymousInFlightBodyBytes,
        total: options.totalInFlightBodyBytes ?? BODY_DEFAULTS.organizationsAtFullBudget * perOrganization,
      },
      minRate: checkRateRule(options.minBodyRate ?? BODY_DEFAULTS.minBodyRate),
      drain: options.overLimitDiscard ?? BODY_DEFAULTS.drain,
      lingerMs: options.lingerMs ?? BODY_DEFAULTS.lingerMs,
    },
    (declared, req) =>
      tooLarge(declared === null ? `Request body exceeds API Gateway's limit of ${options.maxBodyBytes} bytes` : `Request body of ${declared} bytes exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`, requestUrl(req.url).pathname),
  );
}

/**
 * One request: a declared body over the limit is refused at once; the console's paths go to the
 * prelude; a request with a body is admitted before its body is read (its API key checked: a
 * refused key is answered 401 unread), the body read against its organization's budget, then the
 * route's handler runs.
 */
async function handle(options: LocalApiOptions, bodies: RequestBodies, admit: Admit, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const declared = declaredLength(req);
  if (declared !== null && declared > options.maxBodyBytes) {
    return bodies.answerEarly(req, res, tooLarge(`Request body of ${declared} bytes exceeds API Gateway's limit of ${options.maxBodyBytes} bytes`, requestUrl(req.url).pathname));
  }
  const url = requestUrl(req.url);
  const method = (req.method ?? 'GET').toUpperCase();
  if (options.prelude && (await options.prelude(req, res, url, bodies))) return;
  const { match } = matchRoute(options.routes, method, url.pathname);
  const run = (body: Buffer) => respond(options, req, res, method, url, match, body);
  if (!hasBody(req)) return run(EMPTY);
  const needsKey = match !== null && match.route.auth !== false && match.route.auth !== 'console';
  const admission: Admission = needsKey ? await admit(req.headers.authorization) : { tenant: null };
  if ('refusal' in admission) return bodies.answerEarly(req, res, admission.refusal);
  await bodies.withBody(req, res, admission.tenant, run);
}

const EMPTY = Buffer.alloc(0);

/**
 * The request target as a URL whose path is the one sent. `new URL('//api/v1/x', base)` reads a
 * target starting with `//` as a host (`api`) and the path `/v1/x`, so a base URL given with a
 * trailing slash answered for another path; a path is appended to the origin instead (an
 * absolute-form target, as proxies send, is read as a URL).
 */
export function requestUrl(target: string | undefined): URL {
  const path = target || '/';
  return path.startsWith('/') ? new URL(`http://local${path}`) : new URL(path, 'http://local');
}

async function respond(options: LocalApiOptions, req: IncomingMessage, res: ServerResponse, method: string, url: URL, match: RouteMatch<RouteSpec> | null, body: Buffer): Promise<void> {
  const fn: ApiFunctionName = match ? match.route.fn : 'platform';
  const event = toEvent(req, method, url, body, match ? routeKey(match.route) : '$default', match?.params);
  const maxPayload = options.maxPayloadBytes ?? AWS_LIMITS.lambdaPayloadBytes;
  const payload = eventPayloadBytes(event, body);
  if (payload > maxPayload) {
    const encoding = event.isBase64Encoded ? ` (the ${body.length}-byte body is binary, so it is sent base64 encoded, 4/3 of its size)` : '';
    return send(res, tooLarge(`Request too large for a Lambda function: its event would be ${payload} bytes${encoding}, over the ${maxPayload}-byte synchronous payload limit`, url.pathname));
  }
  const context = { awsRequestId: event.requestContext.requestId, functionName: `local-${fn}` } as Context;
  // Each invocation logs in its own context, as separate Lambda invocations would.
  const result = await withLogContext(() => options.functions[fn](event, context));
  send(res, result);
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
  // As API Gateway (payload format 2.0) gives them: a header sent more than once is its values joined
  // with commas. Node's own `req.headers` keeps only the first Authorization or Content-Type and
  // joins others with ', ', so two Authorization headers were the first one here and a 401 in AWS.
  for (const [k, values] of Object.entries(req.headersDistinct)) {
    if (values?.length) headers[k] = k === 'cookie' ? (req.headers.cookie ?? values.join('; ')) : values.join(',');
  }
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
  // Copied without reading `body`: its getter would build the string form (a destructuring did,
  // and each multipart create made a base64 string of its whole body for nothing).
  const rest: Record<string, unknown> = {};
  for (const key of Object.keys(event) as (keyof APIGatewayProxyEventV2)[]) if (key !== 'body') rest[key] = event[key];
  const envelope = Buffer.byteLength(JSON.stringify(rest)) + 10;
  if (!body.length) return envelope;
  if (event.isBase64Encoded) return envelope + 4 * Math.ceil(body.length / 3) + 2;
  return envelope + Buffer.byteLength(JSON.stringify(body.toString('utf8')));
}

const UPLOAD_CREATE = /^\/api\/v1\/uploads\/?$/;
/** A body over a limit; on the uploads' create, how to send a file that large (other routes take no files). */
const tooLarge = (why: string, path: string): APIGatewayProxyStructuredResultV2 => serverAnswer(413, UPLOAD_CREATE.test(path) ? `${why}; ${STAGING_HINT}` : why);
