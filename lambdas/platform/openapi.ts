import * as z from './zod';
import type { AnyRouteSpec } from './http/route-spec';

export const SPEC_VERSION = '2026-08-19';

type JsonSchema = Record<string, unknown>;

/**
 * OpenAPI 3.1 from the route table: the same zod schemas that validate requests describe them, so
 * the document cannot fall behind the code. Named schemas (`.meta({ id })`) land in components.
 */
export interface DocumentInfo {
  title: string;
  /** What the bearer token is. */
  bearer: string;
}

const API_DOCUMENT: DocumentInfo = { title: 'Phone Number Validation Service', bearer: 'svc_live_ + 32 URL-safe characters' };

export function buildOpenApi(routes: readonly AnyRouteSpec[], serverUrl?: string, info: DocumentInfo = API_DOCUMENT): Record<string, unknown> {
  const components: Record<string, JsonSchema> = {};
  const toSchema = (schema: z.ZodMiniType, io: 'input' | 'output'): JsonSchema => {
    const json = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any', reused: 'inline' }) as JsonSchema;
    const defs = (json.$defs ?? {}) as Record<string, JsonSchema>;
    for (const [name, def] of Object.entries(defs)) components[name] = rewriteRefs(def) as JsonSchema;
    const { $schema: _s, $defs: _d, ...rest } = json;
    return rewriteRefs(rest) as JsonSchema;
  };

  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of routes) {
    const parameters: unknown[] = [];
    for (const [where, schema] of [['path', route.request?.params], ['query', route.request?.query]] as const) {
      if (!schema) continue;
      const json = toSchema(schema, 'input');
      const props = (json.properties ?? {}) as Record<string, JsonSchema>;
      const required = new Set((json.required ?? []) as string[]);
      for (const [name, prop] of Object.entries(props)) {
        parameters.push({ name, in: where, required: where === 'path' || required.has(name), schema: prop, description: prop.description });
      }
    }
    const responses: Record<string, unknown> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema || spec.contentType
          ? { content: { [spec.contentType ?? 'application/json']: { schema: spec.schema ? toSchema(spec.schema, 'output') : {} } } }
          : {}),
      };
    }
    const requestBody = route.request?.body
      ? {
          required: true,
          content: Object.fromEntries(
            (route.request.contentTypes ?? ['application/json']).map((type) => [type, mediaTypeObject(type, route, toSchema, components)]),
          ),
        }
      : undefined;
    (paths[route.path] ??= {})[route.method.toLowerCase()] = {
      operationId: route.operationId,
      summary: route.summary,
      tags: route.tags,
      ...(route.auth === false ? { security: [] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      'x-rate-limited': Boolean(route.rateLimited),
      'x-requires-subscription': Boolean(route.subscription),
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
    paths,
    components: {
      securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: info.bearer } },
      schemas: components,
    },
  };
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
