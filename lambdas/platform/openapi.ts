import * as z from './zod';
import { toJSONSchema } from './zod-json-schema';
import type { AnyRouteSpec, HeaderSpec, ResponseSpec } from './http/route-spec';
import { RateLimitError, ServerError, StringError, TooLargeError } from './http/common-schemas';

export const SPEC_VERSION = '2026-08-19';

type JsonSchema = Record<string, unknown>;

/** One event of the OpenAPI 3.1 `webhooks` section: what the service POSTs to an endpoint. */
export interface WebhookEventSpec {
  type: string;
  summary: string;
  description: string;
  /** The whole delivered body (the envelope with this event's `data`). */
  schema: z.ZodMiniType;
  /** Request headers of every delivery. */
  headers: Record<string, HeaderSpec>;
}

/**
 * Headers the platform sets, by name; each lands once in components.headers. The response
 * validator of the tests checks exactly these: present where the document says they may be,
 * present where it says they must be.
 */
export const PLATFORM_HEADERS = {
  'X-Request-Id': { description: 'The request id: quoted in a 500’s detail and on every log line of the request', schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: 'Size (per minute) of the token bucket that counted this call: the per-key or the per-organization one, whichever has fewer tokens left', schema: { type: 'integer' } },
  'X-RateLimit-Remaining': { description: 'Tokens left in that bucket after this call', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Unix seconds at which that bucket is full again', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' } },
  'WWW-Authenticate': { description: 'Always `Bearer`', schema: { type: 'string', enum: ['Bearer'] } },
} as const;
type PlatformHeader = keyof typeof PLATFORM_HEADERS;
const RATE_LIMIT_HEADERS: PlatformHeader[] = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them, so
 * the document cannot fall behind the code. Named schemas (`.meta({ id })`) land in components.
 * What every API function's middleware stack answers (lambdas/api/api-handler.ts: 401, the scope
 * and subscription 403s, 429, 404 for a path id, 400/408/413/415 for a body, 500) is added to each
 * operation from its route's flags, with the headers that go with it.
 */
export interface DocumentInfo {
  title: string;
  /** What the bearer token is. */
  bearer: string;
}

/**
 * Examples recorded from real requests of the test suite (UPDATE_OPENAPI_EXAMPLES=1 on
 * test/integration/platform/openapi-responses.test.ts), by operation id and by event type; the
 * same test holds each to the document, so they cannot drift from what the service answers.
 */
export interface OpenApiExamples {
  operations: Record<string, { request?: unknown; status: string; response?: unknown }>;
  events: Record<string, unknown>;
}

const API_DOCUMENT: DocumentInfo = { title: 'Phone Number Validation Service', bearer: 'svc_live_ + 32 URL-safe characters' };

export function buildOpenApi(
  routes: readonly AnyRouteSpec[],
  serverUrl?: string,
  events: readonly WebhookEventSpec[] = [],
  info: DocumentInfo = API_DOCUMENT,
  examples: OpenApiExamples = { operations: {}, events: {} },
): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => {
    const json = toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    for (const [name, def] of Object.entries(defs)) components[name] = rewriteRefs(def) as JsonSchema;
    const { $schema: _s, $defs: _d, ...rest } = json;
    return rewriteRefs(rest) as JsonSchema;
  };
  const headerObject = (spec: HeaderSpec) => ({ description: spec.description, required: Boolean(spec.required), schema: toSchema(spec.schema, 'output') });

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [['path', route.request?.params], ['query', route.request?.query]] as const) {
      if (!schema) continue;
      const json = toSchema(schema, 'input');
      const props = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, prop] of Object.entries(props)) {
        parameters.push(parameterObject(name, where, where === 'path' || required.has(name), prop));
      }
    }
    for (const [name, spec] of Object.entries(route.request?.headers ?? {})) {
      parameters.push({ name, in: 'header', required: Boolean(spec.required), description: spec.description, schema: toSchema(spec.schema, 'input') });
    }
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(withPlatformResponses(route)).sort(([a], [b]) => Number(a) - Number(b))) {
      const headers: Record<string, unknown> = {};
      // Inline, not a $ref: whether a header is always there differs by response, and OpenAPI
      // allows no sibling `required` next to a $ref.
      for (const [name, required] of platformHeadersOf(route, Number(status))) headers[name] = { ...PLATFORM_HEADERS[name], required };
      for (const [name, header] of Object.entries(spec.headers ?? {})) headers[name] = headerObject(header);
      responses[status] = {
        description: spec.description,
        ...(Object.keys(headers).length ? { headers } : {}),
        ...(spec.schema || spec.contentType
          ? { content: { [spec.contentType ?? 'application/json']: { schema: spec.schema ? toSchema(spec.schema, 'output') : {} }, ...GATEWAY_TEXT_ANSWERS[Number(status)] } }
          : {}),
      };
    }
    const example = examples.operations[route.operationId];
    const jsonOf = (content: unknown) => (content as Record<string, Record<string, unknown>> | undefined)?.['application/json'];
    const answered = example && jsonOf((responses[example.status] as { content?: unknown } | undefined)?.content);
    if (answered && example.response !== undefined) answered.example = example.response;
    const accepts = route.request?.contentTypes ?? (route.request?.body ? ['application/json'] : []);
    const requestBody = accepts.length
      ? { required: true, content: Object.fromEntries(accepts.map((type) => [type, mediaTypeObject(type, route, toSchema, components)])) }
      : undefined;
    const asked = requestBody && jsonOf(requestBody.content);
    if (asked && example?.request !== undefined) asked.example = example.request;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      description: describeOperation(route),
      tags: route.tags,
      ...(route.auth === false ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      'x-rate-limited': Boolean(route.rateLimited),
      'x-requires-subscription': Boolean(route.subscription),
      ...(route.extension ? { 'x-extension': true } : {}),
    };
  }

  const webhooks: Record<string, unknown> = {};
  for (const event of events) {
    webhooks[event.type] = {
      post: {
        operationId: `on${event.type.replace(/(^|[._])(\w)/g, (_m, _sep, c: string) => c.toUpperCase())}`,
        summary: event.summary,
        description: event.description,
        tags: ['events'],
        security: [],
        parameters: Object.entries(event.headers).map(([name, spec]) => ({ name, in: 'header', required: Boolean(spec.required), description: spec.description, schema: toSchema(spec.schema, 'input') })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toSchema(event.schema, 'output'), ...(examples.events[event.type] === undefined ? {} : { example: examples.events[event.type] }) } },
        },
        responses: {
          '2XX': { description: 'Delivered: any 2xx within 10 seconds acknowledges the event (the body is ignored)' },
          '4XX': { description: 'Any other answer, or none within 10 seconds, is a failed attempt: retried (up to 6 attempts) and counted towards the endpoint’s automatic disabling' },
        },
      },
    };
  }

  return {
    openapi: '3.1.0',
    info: {
      title: info.title,
      version: SPEC_VERSION,
      description: 'US/CA phone validation, Answer Intent and Identity classification, spam monitoring, credits and signed webhooks.',
    },
    ...(serverUrl ? { servers: [{ url: serverUrl }] } : {}),
    security: [{ bearerAuth: [] }],
    tags: [...new Set([...routes.flatMap((r) => r.tags), ...(events.length ? ['events'] : [])])].map((name) => ({ name, description: TAG_DESCRIPTIONS[name] ?? name })),
    paths,
    ...(events.length ? { webhooks } : {}),
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: info.bearer } },
      schemas: components,
    },
  };
}

const TAG_DESCRIPTIONS: Record<string, string> = {
  meta: 'The document itself, liveness and readiness (no authentication)',
  credits: 'The organization’s credit balance',
  webhooks: 'Endpoints that receive signed event deliveries, and their delivery log',
  spam: 'Spam monitoring of outbound numbers',
  contacts: 'Single numbers, classified asynchronously',
  uploads: 'Bulk lists (CSV or JSON), processed asynchronously',
  events: 'What the service POSTs to a registered endpoint',
};

const e = (description: string, schema: z.ZodMiniType = StringError): ResponseSpec => ({ description, schema });

/**
 * Answers API Gateway gives in plain text, before any function runs (deployed only), beside the
 * JSON ones: a body over its 10 MB limit, as API Gateway users report it (not measured here).
 */
const GATEWAY_TEXT_ANSWERS: Record<number, Record<string, JsonSchema>> = {
  413: { 'text/plain': { schema: { type: 'string' }, example: 'HTTP content length exceeded 10485760 bytes.' } },
};

/**
 * The route's own responses, plus what the middleware stack answers for it. A status the route
 * declares keeps the route's description and schema.
 */
export function withPlatformResponses(route: AnyRouteSpec): Record<number, ResponseSpec> {
  const implied: Record<number, ResponseSpec> = {};
  const hasBody = Boolean(route.request?.body || route.request?.forms);
  if (route.request?.query || hasBody) implied[400] = e(hasBody ? 'Invalid request: a malformed body, a field the call does not define, or a value out of range' : 'Invalid query parameter');
  if (route.auth !== false) implied[401] = e('Authentication failed (see Authentication); carries WWW-Authenticate: Bearer');
  if (route.subscription || route.scope) implied[403] = e(route.subscription ? 'No active subscription' : `The API key lacks the ${route.scope} scope`);
  if (route.request?.params) implied[404] = e('Unknown id, or another organization’s (not distinguished)');
  if (hasBody) {
    implied[408] = e(
      'The request body arrived too slowly: the local server (npm start) cuts a body that brings less than LOCAL_BODY_MIN_BYTES_PER_SECOND (1,024 bytes per second, over every 10 s) and closes the connection after this answer (docs/operations.md, Request bodies)',
    );
    implied[413] = e(
      'Request body too large (on POST /api/v1/uploads the detail names the staging path): a body over 10,485,760 bytes (API Gateway’s limit; a declared Content-Length over it is answered before the body is read, and the rest is read and dropped so a client still sending reads this answer), or a Lambda event over 6 MB (binary bodies count base64 encoded; docs/uploads.md, Large files). Deployed, API Gateway answers these itself, not in the service’s envelope: over 10 MB in plain text (`HTTP content length exceeded 10485760 bytes.`), over Lambda’s limit `{"message":"Request Too Long"}` (GatewayError), as API Gateway users report them; neither carries X-Request-Id',
      TooLargeError,
    );
    if ((route.request?.contentTypes ?? ['application/json']).length === 1) implied[415] = e('Content-Type other than application/json');
  }
  if (route.rateLimited) implied[429] = { description: 'Rate limit exceeded; carries Retry-After and X-RateLimit-* headers', schema: RateLimitError };
  implied[500] = { description: 'Server error: the detail quotes the request id; safe to retry with backoff', schema: ServerError };
  implied[503] = { description: 'Brief unavailability; safe to retry with backoff', schema: ServerError };
  return { ...implied, ...route.responses };
}

/** The platform's headers on one response of a route, with whether each is always there. */
export function platformHeadersOf(route: AnyRouteSpec, status: number): Array<[PlatformHeader, boolean]> {
  const out: Array<[PlatformHeader, boolean]> = [];
  // Answers made before a function runs (a body over API Gateway's limit, its own 5xx) carry no id.
  out.push(['X-Request-Id', status !== 413 && status < 500]);
  // A rate-limited call reports its bucket once it has spent a token (after authentication).
  if (route.rateLimited && status !== 401) for (const name of RATE_LIMIT_HEADERS) out.push([name, status === 429]);
  if (status === 429) {
    out.push(['Retry-After', true]);
    if (!route.rateLimited) for (const name of RATE_LIMIT_HEADERS) out.push([name, true]);
  }
  if (status === 401) out.push(['WWW-Authenticate', true]);
  return out;
}

/** The summary, the route's own description, then its access rules, as the middleware applies them. */
function describeOperation(route: AnyRouteSpec): string {
  const rules: string[] = [];
  if (route.auth === false) rules.push('No authentication.');
  else rules.push(`Authentication: \`Authorization: Bearer <API key>\`${route.scope ? `; scope \`${route.scope}\`` : ''}.`);
  if (route.rateLimited) rules.push('Rate limited: counts against the per-key and per-organization token buckets (429 with Retry-After when one is empty); every answer after authentication reports the bucket in X-RateLimit-*.');
  if (route.subscription) rules.push('Needs an active subscription (403 otherwise).');
  return [`${route.summary}.`, route.description, rules.join(' ')].filter(Boolean).join('\n\n');
}

/**
 * A query or path parameter. A comma-separated list of a fixed vocabulary (meta
 * `x-comma-separated-enum`) is described as OpenAPI does: an array sent `style: form`,
 * `explode: false` (`statuses=a,b`), so a generated client offers the values.
 */
function parameterObject(name: string, where: 'path' | 'query', required: boolean, prop: JsonSchema): JsonSchema {
  const { 'x-comma-separated-enum': values, 'x-query-integer': integer, description, ...schema } = prop as JsonSchema & { 'x-comma-separated-enum'?: string[]; 'x-query-integer'?: JsonSchema };
  if (integer) return { name, in: where, required, schema: integer, ...(description ? { description } : {}) };
  if (values) {
    return { name, in: where, required, description, style: 'form', explode: false, schema: { type: 'array', items: { type: 'string', enum: values }, uniqueItems: true } };
  }
  return { name, in: where, required, schema, ...(description ? { description } : {}) };
}

/**
 * The JSON body's schema, or the route's form schema for another content type; form parts that
 * carry a file (`contentMediaType`) get the matching `encoding` entry.
 */
function mediaTypeObject(
  type: string,
  route: AnyRouteSpec,
  toSchema: (schema: z.ZodMiniType, io: 'input' | 'output') => JsonSchema,
  components: Record<string, JsonSchema>,
): JsonSchema {
  if (type === 'application/json') return { schema: toSchema(route.request!.body!, 'input') };
  const form = route.request?.forms?.[type];
  if (!form) throw new Error(`${route.method} ${route.path} accepts ${type} but declares no schema for it in request.forms`);
  const schema = toSchema(form, 'input');
  // A named form lands in components; its properties are read there.
  const ref = typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : null;
  const target = ref ? (components[ref] ?? {}) : schema;
  const encoding: Record<string, JsonSchema> = {};
  for (const [name, property] of Object.entries((target.properties ?? {}) as Record<string, JsonSchema>)) {
    if (typeof property.contentMediaType === 'string') encoding[name] = { contentType: property.contentMediaType };
  }
  return { schema, ...(Object.keys(encoding).length ? { encoding } : {}) };
}

function rewriteRefs(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(rewriteRefs);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = k === '$ref' && typeof v === 'string' ? v.replace('#/$defs/', '#/components/schemas/') : rewriteRefs(v);
    }
    return out;
  }
  return value;
}
