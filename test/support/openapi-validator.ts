import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// A response validator built from the served OpenAPI document: every response a test makes is
// held to the document, and anything it does not describe is a violation: an operation or a status
// it does not list, a service header it does not list for that response (or one it says is always
// there and is missing), a body that does not match the response's schema (JSON Schema 2020-12,
// compiled with Ajv), or a content type it does not list.

type Json = Record<string, unknown>;
interface HeaderObject {
  required?: boolean;
  schema?: Json;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, { schema?: Json }>;
}

/** The headers the service itself sets; generic ones (Content-Type, Date, Connection…) are not checked. */
export const SERVICE_HEADERS = ['x-request-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'www-authenticate', 'idempotent-replayed'];

const BASE = 'https://openapi.local/';

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => void;

export interface ResponseValidator {
  /** The violations of one response (empty when the document describes it). */
  check(method: string, path: string, response: { status: number; headers: Headers; body: Buffer }): string[];
  /** The violations of one delivered event body, against its entry of the `webhooks` section. */
  checkEvent(body: string): string[];
  /** `METHOD path status` of every response checked, and every event type checked, for a coverage report. */
  seen: Set<string>;
  /** The id of the operation a request reaches, or null when the document has none. */
  operationIdOf(method: string, path: string): string | null;
  /** The violations of a recorded example: its request body and its response body against the operation's schemas. */
  checkExample(operationId: string, example: { request?: unknown; status: string; response?: unknown }): string[];
}

export function responseValidator(doc: Json): ResponseValidator {
  const absolute = (schema: unknown): Json => JSON.parse(JSON.stringify(schema).replaceAll('"#/components/schemas/', `"${BASE}#/components/schemas/`)) as Json;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ $id: BASE, components: absolute({ schemas: (doc.components as Json).schemas }) });
  const compiled = new Map<Json, ValidateFunction>();
  const validatorOf = (schema: Json) => {
    let fn = compiled.get(schema);
    if (!fn) compiled.set(schema, (fn = ajv.compile(absolute(schema))));
    return fn;
  };

  const templates = Object.keys(doc.paths as Json).map((template) => ({
    template,
    pattern: new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+')}$`),
  }));
  const seen = new Set<string>();

  const find = (method: string, path: string) => {
    const pathname = new URL(path, 'http://x').pathname;
    const template = templates.find((t) => t.pattern.test(pathname))?.template;
    const operation = template ? ((doc.paths as Record<string, Record<string, Json>>)[template] ?? {})[method.toLowerCase()] : undefined;
    return { pathname, template, operation };
  };
  const operations = Object.values(doc.paths as Record<string, Record<string, Json>>).flatMap((byMethod) => Object.values(byMethod));
  const jsonSchemaOf = (holder: unknown): Json | undefined => ((holder as { content?: Record<string, { schema?: Json }> } | undefined)?.content ?? {})['application/json']?.schema;

  return {
    seen,
    operationIdOf(method, path) {
      const { operation } = find(method, path);
      return operation ? String(operation.operationId) : null;
    },
    checkExample(operationId, example) {
      const operation = operations.find((o) => o.operationId === operationId);
      if (!operation) return [`example for ${operationId}: no such operation`];
      const problems: string[] = [];
      const check = (what: string, schema: Json | undefined, value: unknown) => {
        if (value === undefined) return;
        if (!schema) return void problems.push(`example for ${operationId}: a ${what} body where the document has no JSON schema`);
        const validate = validatorOf(schema);
        if (!validate(value)) problems.push(`example for ${operationId} (${what}): ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
      };
      check('request', jsonSchemaOf(operation.requestBody), example.request);
      const response = (operation.responses as Record<string, unknown>)[example.status];
      if (!response) problems.push(`example for ${operationId}: status ${example.status} not documented`);
      else check(`${example.status} response`, jsonSchemaOf(response), example.response);
      return problems;
    },
    checkEvent(body) {
      let event: { type?: unknown };
      try {
        event = JSON.parse(body) as { type?: unknown };
      } catch {
        return ['event body is not JSON'];
      }
      const type = String(event.type);
      const hook = ((doc.webhooks ?? {}) as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>)[type];
      if (!hook) return [`event type ${type} is not in the webhooks section`];
      seen.add(`event ${type}`);
      const validate = validatorOf(hook.post.requestBody.content['application/json']!.schema);
      return validate(event) ? [] : [`event ${type} does not match: ${ajv.errorsText(validate.errors, { separator: '; ' })} — ${body.slice(0, 300)}`];
    },
    check(method, path, response) {
      const { pathname, template, operation } = find(method, path);
      const where = `${method} ${template ?? pathname} → ${response.status}`;
      if (!template) return [`${where}: no such path in the document`];
      if (!operation) return [`${where}: no such operation in the document`];
      seen.add(`${method} ${template} ${response.status}`);
      const spec = (operation.responses as Record<string, ResponseObject>)[String(response.status)];
      if (!spec) return [`${where}: status not documented (documented: ${Object.keys(operation.responses as Json).join(', ')})`];
      const problems: string[] = [];
      const documented = new Map(Object.entries(spec.headers ?? {}).map(([name, header]) => [name.toLowerCase(), header]));
      for (const name of SERVICE_HEADERS) {
        const value = response.headers.get(name);
        const header = documented.get(name);
        if (value !== null && !header) problems.push(`${where}: header ${name} not documented for this response`);
        if (value === null && header?.required) problems.push(`${where}: documented required header ${name} missing`);
        if (value !== null && header?.schema) {
          const typed = header.schema.type === 'integer' ? (/^-?\d+$/.test(value) ? Number(value) : value) : value;
          const validate = validatorOf(header.schema);
          if (!validate(typed)) problems.push(`${where}: header ${name}=${value}: ${ajv.errorsText(validate.errors)}`);
        }
      }
      const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!spec.content) {
        if (response.body.length > 0) problems.push(`${where}: a body (${contentType}) where the document says none`);
        return problems;
      }
      const media = spec.content[contentType];
      if (!media) return [...problems, `${where}: content type '${contentType}' not documented (documented: ${Object.keys(spec.content).join(', ')})`];
      if (contentType === 'application/json' && media.schema) {
        let body: unknown;
        try {
          body = JSON.parse(response.body.toString('utf8'));
        } catch {
          return [...problems, `${where}: body is not JSON`];
        }
        const validate = validatorOf(media.schema);
        if (!validate(body)) problems.push(`${where}: body does not match: ${ajv.errorsText(validate.errors, { separator: '; ' })} — ${response.body.toString('utf8').slice(0, 300)}`);
      }
      return problems;
    },
  };
}
