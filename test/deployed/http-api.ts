import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID, type KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';
import { ACCOUNT } from './assembly';
import type { CfnResolver } from './cfn';
import { LambdaInvokeError, type DeployedLambda } from './lambda-host';

/** API Gateway HTTP API's request body limit (10 MB). */
export const HTTP_API_MAX_BODY_BYTES = 10 * 1024 * 1024;

// Media types API Gateway HTTP APIs pass to Lambda as text; every other body arrives base64 encoded.
const TEXT_TYPES = [/^text\//, /^application\/(.+\+)?json$/, /^application\/(.+\+)?xml$/, /^application\/javascript$/, /^application\/x-www-form-urlencoded$/];

interface Route {
  method: string;
  pattern: RegExp;
  params: string[];
  routeKey: string;
  fn: DeployedLambda;
  jwt: JwtAuthorizer | null;
}

interface JwtAuthorizer {
  issuer: string;
  audience: string[];
  scopes: string[];
}

/**
 * Where JWT authorizers get the issuer's signing key. AWS fetches it from the issuer's JWKS
 * (Cognito's, on the internet); here the test holds the key pair and signs the tokens it sends.
 */
export interface HttpApiOptions {
  issuerKey?: KeyObject;
}

/**
 * The deployed HTTP API, from the template: its routes (AWS::ApiGatewayV2::Route), each to the
 * function its integration names, `$default` for the rest; every request turned into the payload
 * format 2.0 event AWS documents (lower-case headers, duplicates comma-joined, cookies apart,
 * binary bodies base64 encoded) and the function's answer turned back into HTTP. AWS's limits
 * apply: 10 MB bodies, 6 MB synchronous Lambda payloads (after base64).
 */
export async function startHttpApi(resolver: CfnResolver, byArn: Map<string, DeployedLambda>, options: HttpApiOptions = {}): Promise<{ url: string; close(): Promise<void> }> {
  const authorizers = new Map<string, JwtAuthorizer>();
  for (const [id, authorizer] of resolver.ofType('AWS::ApiGatewayV2::Authorizer')) {
    const props = resolver.resolve(authorizer.Properties) as { AuthorizerType: string; IdentitySource?: string[]; JwtConfiguration?: { Audience: string[]; Issuer: string } };
    if (props.AuthorizerType !== 'JWT' || !props.JwtConfiguration) throw new Error(`${id}: only JWT authorizers are played here`);
    if (props.IdentitySource && props.IdentitySource.join() !== '$request.header.Authorization') throw new Error(`${id}: identity source ${props.IdentitySource.join()}`);
    authorizers.set(id, { issuer: props.JwtConfiguration.Issuer, audience: props.JwtConfiguration.Audience, scopes: [] });
  }
  const integrations = new Map<string, DeployedLambda>();
  for (const [id, integration] of resolver.ofType('AWS::ApiGatewayV2::Integration')) {
    const props = integration.Properties as { IntegrationUri: unknown; PayloadFormatVersion: string };
    if (props.PayloadFormatVersion !== '2.0') throw new Error(`${id}: payload format ${props.PayloadFormatVersion}`);
    const fn = byArn.get(String(resolver.resolve(props.IntegrationUri)));
    if (!fn) throw new Error(`${id}: integration target is not a deployed function`);
    integrations.set(id, fn);
  }
  const routes: Route[] = [];
  let fallback: DeployedLambda | null = null;
  for (const [, route] of resolver.ofType('AWS::ApiGatewayV2::Route')) {
    const props = route.Properties as { RouteKey: string; Target: { 'Fn::Join': [string, [string, { Ref: string }]] }; AuthorizationType?: string; AuthorizerId?: { Ref: string }; AuthorizationScopes?: string[] };
    const fn = integrations.get(props.Target['Fn::Join'][1][1].Ref)!;
    const authorizer = props.AuthorizationType === 'JWT' ? authorizers.get(props.AuthorizerId!.Ref) : undefined;
    if (props.AuthorizationType === 'JWT' && !authorizer) throw new Error(`${props.RouteKey}: its authorizer is not in the template`);
    const jwt = authorizer ? { ...authorizer, scopes: props.AuthorizationScopes ?? [] } : null;
    if (props.RouteKey === '$default') {
      fallback = fn;
      continue;
    }
    const [method, path] = props.RouteKey.split(' ') as [string, string];
    const params: string[] = [];
    const pattern = new RegExp(
      `^${path.replace(/\{(\w+)(\+?)\}/g, (_m, name: string, greedy: string) => {
        params.push(name);
        return greedy ? '(.+)' : '([^/]+)';
      })}$`,
    );
    routes.push({ method, pattern, params, routeKey: props.RouteKey, fn, jwt });
  }

  const server: Server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      console.error('http api:', error);
      if (!res.headersSent) reply(res, 500, { message: 'Internal Server Error' });
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > HTTP_API_MAX_BODY_BYTES) {
      req.resume();
      return reply(res, 413, { message: 'Request Entity Too Large' });
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > HTTP_API_MAX_BODY_BYTES) return reply(res, 413, { message: 'Request Entity Too Large' });
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://api');
    const method = req.method ?? 'GET';
    let target = fallback;
    let routeKey = '$default';
    let pathParameters: Record<string, string> | undefined;
    let jwt: JwtAuthorizer | null = null;
    for (const route of routes) {
      const m = route.method === method ? route.pattern.exec(url.pathname) : null;
      if (!m) continue;
      target = route.fn;
      routeKey = route.routeKey;
      jwt = route.jwt;
      pathParameters = Object.fromEntries(route.params.map((p, i) => [p, decodeURIComponent(m[i + 1]!)]));
      break;
    }
    if (!target) return reply(res, 404, { message: 'Not Found' });
    const event = toEvent(req, url, body, routeKey, pathParameters) as { requestContext: Record<string, unknown> };
    if (jwt) {
      const claims = await authorize(jwt, req.headers.authorization, options.issuerKey);
      if (!claims) return reply(res, 401, { message: 'Unauthorized' });
      event.requestContext.authorizer = { jwt: { claims, scopes: typeof claims.scope === 'string' ? claims.scope.split(' ') : null } };
    }
    let result: unknown;
    try {
      result = await target.invoke(event);
    } catch (error) {
      if (error instanceof LambdaInvokeError && error.errorType === 'RequestEntityTooLargeException') return reply(res, 413, { message: 'Request Entity Too Large' });
      console.error('http api: function error', error);
      return reply(res, 500, { message: 'Internal Server Error' });
    }
    send(res, result);
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * API Gateway's JWT authorizer as documented: the token from the Authorization header (a `Bearer `
 * prefix dropped), its signature checked with the issuer's key, `iss` equal to the issuer, `aud` or
 * else `client_id` one of the audiences, `exp`/`nbf` honoured, and the route's scopes required.
 */
async function authorize(config: JwtAuthorizer, header: string | undefined, key: KeyObject | undefined): Promise<Record<string, unknown> | null> {
  const token = header?.replace(/^Bearer /, '');
  if (!token || !key) return null;
  try {
    const { payload } = await jwtVerify(token, key, { issuer: config.issuer });
    const audiences = payload.aud !== undefined ? [payload.aud].flat() : [payload.client_id].filter((v): v is string => typeof v === 'string');
    if (!audiences.some((a) => config.audience.includes(a))) return null;
    const granted = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
    if (config.scopes.length && !config.scopes.some((s) => granted.includes(s))) return null;
    return payload as Record<string, unknown>;
  } catch {
    return null;
  }
}

function toEvent(req: IncomingMessage, url: URL, body: Buffer, routeKey: string, pathParameters: Record<string, string> | undefined): unknown {
  const headers: Record<string, string> = {};
  let cookies: string[] | undefined;
  for (let i = 0; i < req.rawHeaders.length; i += 2) {
    const name = req.rawHeaders[i]!.toLowerCase();
    const value = req.rawHeaders[i + 1]!;
    if (name === 'cookie') {
      cookies = [...(cookies ?? []), ...value.split(';').map((c) => c.trim()).filter(Boolean)];
      continue;
    }
    headers[name] = headers[name] === undefined ? value : `${headers[name]},${value}`;
  }
  headers['x-forwarded-proto'] = 'https';
  headers['x-forwarded-port'] = '443';
  headers['x-forwarded-for'] = req.socket.remoteAddress ?? '127.0.0.1';
  headers['x-amzn-trace-id'] = `Root=1-${Math.floor(Date.now() / 1000).toString(16)}-${randomUUID().replace(/-/g, '').slice(0, 24)}`;
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  const type = (headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const isText = TEXT_TYPES.some((t) => t.test(type));
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.slice(1),
    ...(cookies ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(pathParameters && Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: ACCOUNT,
      apiId: 'deployed',
      domainName: 'deployed.execute-api.us-east-1.amazonaws.com',
      domainPrefix: 'deployed',
      http: { method: req.method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp: headers['x-forwarded-for'], userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: ServerResponse, result: unknown): void {
  const structured = result !== null && typeof result === 'object' && 'statusCode' in result;
  if (!structured) return reply(res, 200, result);
  const r = result as { statusCode: number; headers?: Record<string, string>; cookies?: string[]; body?: string; isBase64Encoded?: boolean };
  const body = r.body ? Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  const headers: Record<string, string | string[]> = { ...(r.headers ?? {}) };
  if (r.cookies?.length) headers['set-cookie'] = r.cookies;
  res.writeHead(r.statusCode, { ...headers, 'content-length': String(body.length) });
  res.end(body);
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}
