import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { authenticate } from '../auth/authenticate';
import { consolePrincipal } from '../console/principal';
import { consumeRateLimit } from '../ratelimit/rate-limiter';
import { HttpError } from '../platform/errors';
import { Forbidden, RateLimited, TooLarge, UnsupportedContentType } from '../platform/domain-errors';
import { toHttpError } from '../platform/http/error-response';
import { logger, withLogContext } from '../platform/logger';
import { isJsonMediaType, mediaType } from '../platform/http/content-type';
import type { ApiContext, BoundOperation } from './operation';
import { firstInexactNumber } from '../platform/http/json-numbers';
import { jsonNestingDepth, MAX_JSON_DEPTH } from '../platform/http/json-depth';
import { isUtf8 } from 'node:buffer';
import { rawBodyOf } from '../platform/http/raw-body';
import { toApiGatewayResult, type OperationResult } from '../platform/http/response';
import { routeKey, type AnyRouteSpec } from '../platform/http/route-spec';
import { matchRoute } from '../platform/http/match';
import { parseOr400, parseParamsOr404 } from '../platform/http/validation';
import { errorEnvelope } from './error-envelope';
import { config } from '../platform/config';

/** JSON bodies above this are refused before parsing (API Gateway's own limit is 10 MB). */

/**
 * The one middleware stack of every API function: request id and structured logs, the error
 * envelope, authentication, rate limits, the subscription gate, body and query validation, then
 * the feature's operation for the matched route.
 */
export function apiHandler(operations: BoundOperation[], options: { routeByPath?: boolean } = {}): (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2> {
  const byKey = new Map(operations.map((op) => [op.key, op]));
  const routes = operations.map((op) => op.route);
  const handler = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(errorEnvelope())
    .handler(async (event, context) => {
      const op = byKey.get(event.routeKey) ?? (options.routeByPath ? byPath(event) : undefined);
      if (!op) throw new HttpError(404, 'Not found');
      const requestId = event.requestContext?.requestId ?? context.awsRequestId;
      const result = await runOperation(op, event, requestId);
      return toApiGatewayResult(result, requestId);
    });
  /**
   * A function behind one catch-all route (the console's `/console/api/{proxy+}`) finds its
   * operation by method and path itself: 404 for no such path, 405 with Allow for another method.
   */
  function byPath(event: APIGatewayProxyEventV2): BoundOperation {
    const method = event.requestContext.http.method.toUpperCase();
    const { match, pathExists } = matchRoute(routes, method, event.rawPath);
    if (!match) {
      if (!pathExists) throw new HttpError(404, 'Not found');
      const allowed = routes.filter((r) => matchRoute([r], r.method, event.rawPath).match).map((r) => r.method);
      throw new HttpError(405, 'Method not allowed', { allow: allowed.join(', ') });
    }
    event.pathParameters = match.params;
    return byKey.get(routeKey(match.route))!;
  }
  // Every line this request logs carries its own request id and route, however requests overlap.
  return (event, context) => withLogContext(() => handler(event, context));
}

async function runOperation(op: BoundOperation, event: APIGatewayProxyEventV2, requestId: string): Promise<OperationResult> {
  let route = op.route;
  const headers = lowerCaseHeaders(event.headers);
  const ctx: ApiContext = {
    event,
    requestId,
    route,
    principal: undefined as unknown as ApiContext['principal'],
    member: undefined as unknown as ApiContext['member'],
    params: undefined,
    query: undefined,
    body: undefined,
    rawBody: rawBodyOf(event),
    headers,
    responseHeaders: {},
  };

  if (route.auth === 'console') {
    ctx.member = await consolePrincipal(event);
    logger.appendKeys({ organization_id: ctx.member.organizationId, user_id: ctx.member.userId });
    if (route.subscription) requireActiveSubscription(ctx.member.organization);
  } else if (route.auth !== false) {
    ctx.principal = await authenticate(headers.authorization);
    logger.appendKeys({ organization_id: ctx.principal.organizationId, api_key_id: ctx.principal.apiKeyId });
    if (route.scope && !ctx.principal.scopes.includes(route.scope)) throw new Forbidden(`API key lacks scope ${route.scope}`);
    if (route.rateLimited) {
      try {
        Object.assign(ctx.responseHeaders, await consumeRateLimit(ctx.principal.apiKeyId, ctx.principal.organizationId));
      } catch (error) {
        if (error instanceof RateLimited) logger.warn('rate limited', { detail: error.detail });
        throw error;
      }
    }
    if (route.subscription) requireActiveSubscription(ctx.principal.organization);
  }

  try {
    // An operation loaded at its first request (lazyOperation) validates with its full route.
    const bound = op.load ? await op.load() : op;
    ctx.route = route = bound.route;
    if (route.request?.params) (ctx as { params: unknown }).params = parseParamsOr404(route.request.params, event.pathParameters ?? {});
    if (route.request?.query) (ctx as { query: unknown }).query = parseOr400(route.request.query, event.queryStringParameters ?? {}, 'query parameters');
    if (route.request?.body && acceptsOnlyJson(route)) (ctx as { body: unknown }).body = parseJsonBody(route, ctx);
    const result = await bound.run(ctx);
    return { ...result, headers: { ...ctx.responseHeaders, ...result.headers } };
  } catch (error) {
    // A call that spent a token reports the bucket even when it then fails.
    const known = toHttpError(error);
    if (known) throw new HttpError(known.status, known.detail, { ...ctx.responseHeaders, ...known.headers });
    throw error;
  }
}

/**
 * The subscription gate of every route that sets `subscription: true`, the API's and the
 * console's alike (spam monitoring, upload staging and confirming): one rule, one answer in words.
 */
export function requireActiveSubscription(organization: { subscription_active: boolean }): void {
  if (!organization.subscription_active) throw new Forbidden('Your organization’s subscription is not active, and this needs an active subscription');
}

function acceptsOnlyJson(route: AnyRouteSpec): boolean {
  const types = route.request?.contentTypes ?? ['application/json'];
  return types.length === 1 && types[0] === 'application/json';
}

/** Parses and validates a JSON body; routes that take several content types call this themselves. */
export function parseJsonBody(route: AnyRouteSpec, ctx: Pick<ApiContext, 'rawBody' | 'headers'>): unknown {
  const type = mediaType(ctx.headers['content-type']);
  // An absent Content-Type on an empty body is fine (e.g. a bare POST); anything else must be JSON.
  if (type && !isJsonMediaType(type)) throw new UnsupportedContentType(`Unsupported Content-Type '${type}'; send application/json`);
  const maxJsonBytes = config().MAX_JSON_BODY_BYTES;
  if (ctx.rawBody.length > maxJsonBytes) throw new TooLarge(`Request body exceeds ${maxJsonBytes} bytes`);
  let parsed: unknown = {};
  if (ctx.rawBody.length > 0) {
    if (jsonNestingDepth(ctx.rawBody, MAX_JSON_DEPTH) > MAX_JSON_DEPTH) {
      throw new HttpError(400, `JSON body nests objects and arrays more than ${MAX_JSON_DEPTH} levels deep`);
    }
    // JSON is UTF-8 (RFC 8259); decoding would turn bad bytes into U+FFFD and store them.
    if (!isUtf8(ctx.rawBody)) throw new HttpError(400, 'Malformed JSON body: it is not valid UTF-8');
    try {
      parsed = JSON.parse(ctx.rawBody.toString('utf8'));
    } catch {
      throw new HttpError(400, 'Malformed JSON body');
    }
    const inexact = firstInexactNumber(ctx.rawBody);
    if (inexact !== null) {
      const shown = inexact.length > 40 ? `${inexact.slice(0, 40)}…` : inexact;
      throw new HttpError(400, `The number ${shown} cannot be kept exactly (JSON numbers are kept to 15–17 significant digits, up to about 1.8e308); send it as a string`);
    }
  }
  return route.request?.body ? parseOr400(route.request.body, parsed, 'request body') : parsed;
}

function lowerCaseHeaders(headers: APIGatewayProxyEventV2['headers'] | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}
