import { describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { useTestService } from '../../support/runtime';

const service = useTestService();

type Json = Record<string, unknown>;

async function served(): Promise<{ text: string; doc: Json }> {
  const res = await service.request('GET', '/openapi.json', { key: null });
  expect(res.status).toBe(200);
  const text = await res.text();
  return { text, doc: JSON.parse(text) as Json };
}

describe('the served OpenAPI document', () => {
  it('passes an independent validator (Redocly, recommended rules) with 0 errors and 0 warnings', async () => {
    const { text, doc } = await served();
    // Three recommended rules do not fit this API, each checked here instead:
    // - info-license: the project declares no license, and the document does not invent one;
    // - operation-4xx-response: /openapi.json, /health and /ready take no input and need no key,
    //   so no 4xx is theirs to answer (every other operation must list one: below);
    // - operation-2xx-response: DELETE /api/v1/uploads/{id} is always 410 (spec).
    const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off', 'operation-4xx-response': 'off', 'operation-2xx-response': 'off' } });
    const problems = await lintFromString({ source: text, absoluteRef: `${service.url}/openapi.json`, config });
    const describe = (p: (typeof problems)[number]) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;
    expect(problems.map(describe)).toEqual([]);

    const operations = Object.entries(doc.paths as Record<string, Record<string, { responses: Json }>>).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => [`${method.toUpperCase()} ${path}`, Object.keys(op.responses)] as const));
    const without4xx = operations.filter(([, statuses]) => !statuses.some((s) => s.startsWith('4'))).map(([name]) => name);
    expect(without4xx.sort()).toEqual(['GET /health', 'GET /openapi.json', 'GET /ready']);
    const without2xx = operations.filter(([, statuses]) => !statuses.some((s) => s.startsWith('2'))).map(([name]) => name);
    expect(without2xx).toEqual(['DELETE /api/v1/uploads/{id}']);
  });

  it('gives what a client generator needs: descriptions, response headers, typed errors, date-time, enums, a binary file, the webhooks', async () => {
    const { doc } = await served();
    const paths = doc.paths as Record<string, Record<string, { description?: string; responses: Record<string, { headers?: Json; content?: Record<string, { schema: Json }> }> }>>;
    for (const [path, ops] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const name = `${method} ${path}`;
        expect(op.description, name).toEqual(expect.any(String));
        for (const [status, response] of Object.entries(op.responses)) {
          // Every error has a typed body; every answer of the function carries its request id.
          if (Number(status) >= 400) expect(response.content?.['application/json']?.schema, `${name} ${status}`).toBeDefined();
          expect(Object.keys(response.headers ?? {}), `${name} ${status}`).toContain('X-Request-Id');
        }
        expect(Object.keys(op.responses), name).toEqual(expect.arrayContaining(['500', '503']));
      }
    }
    const create = paths['/api/v2/contacts']!.post!;
    expect(Object.keys(create.responses['201']!.headers!)).toEqual(expect.arrayContaining(['X-Request-Id', 'X-RateLimit-Limit', 'Idempotent-Replayed']));
    expect(create.responses['429']!.headers).toMatchObject({ 'Retry-After': { required: true }, 'X-RateLimit-Limit': { required: true } });
    expect(create.responses['401']!.headers).toMatchObject({ 'WWW-Authenticate': { required: true } });
    expect(Object.keys(paths['/api/v1/uploads/staging']!.post!.responses)).toEqual(expect.arrayContaining(['403', '429']));

    const schemas = (doc.components as Json).schemas as Record<string, { properties: Record<string, Json> }>;
    expect(JSON.stringify(schemas.Upload!.properties.created_at)).toContain('"format":"date-time"');
    expect(JSON.stringify(schemas.WebhookEndpoint!.properties.verified_at)).toContain('"format":"date-time"');
    expect((schemas.AnswerIntent as unknown as { enum: string[] }).enum).toEqual(['Likely Answer', 'Likely Call Screening', 'Likely Voicemail', 'Non-Mobile', 'Unknown']);
    expect((schemas.IdentityBand as unknown as { enum: string[] }).enum).toEqual(['Very High', 'High', 'Medium', 'Low', 'Unknown']);
    expect((schemas.ServiceStatus as unknown as { enum: string[] }).enum).toHaveLength(13);
    expect(schemas.CreateUploadMultipart!.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    const statuses = ((paths['/api/v1/uploads/{id}/download/processed']!.get as unknown as { parameters: Array<Json & { name: string }> }).parameters).find((p) => p.name === 'statuses');
    expect(statuses).toMatchObject({ in: 'query', style: 'form', explode: false, schema: { type: 'array', items: { enum: expect.arrayContaining(['1 - Likely Right-Party Answer', 'Likely Answer']) } } });

    const webhooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { schema: Json }> } } }>;
    expect(Object.keys(webhooks).sort()).toEqual(['contact.completed', 'contact.failed', 'number.verified', 'spam.detected', 'upload.completed', 'upload.created', 'upload.failed', 'webhook.ping']);
    for (const [type, hook] of Object.entries(webhooks)) expect(JSON.stringify(hook.post.requestBody.content['application/json']!.schema), type).toContain(`"const":"${type}"`);
  });

  it('describes every field of the multipart upload body', async () => {
    const { doc } = await served();
    const create = ((doc.paths as Json)['/api/v1/uploads'] as Json).post as Json;
    const multipart = ((create.requestBody as Json).content as Json)['multipart/form-data'] as Json;
    const ref = (multipart.schema as { $ref: string }).$ref;
    expect(ref).toBe('#/components/schemas/CreateUploadMultipart');
    const schema = ((doc.components as Json).schemas as Json).CreateUploadMultipart as { properties: Record<string, Json>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(
      ['file', 'filename_override', 'first_name_column', 'full_name_column', 'last_name_column', 'phone_column', 'phone_columns', 'skip_mobile_lookup', 'validation_tier'].sort(),
    );
    expect(schema.required).toEqual(['file']);
    for (const [name, property] of Object.entries(schema.properties)) expect(property.description, name).toEqual(expect.any(String));
    expect(schema.properties.validation_tier!.enum).toEqual(['standard', 'max']);
    expect((multipart.encoding as Json).file).toEqual({ contentType: 'text/csv' });
  });

  it('declares every path parameter of every operation', async () => {
    const { doc } = await served();
    for (const [path, operations] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      for (const [method, operation] of Object.entries(operations)) {
        const declared = ((operation.parameters ?? []) as Array<{ name: string; in: string; required: boolean }>).filter((p) => p.in === 'path');
        expect(declared.map((p) => p.name).sort(), `${method} ${path}`).toEqual([...inPath].sort());
        expect(declared.every((p) => p.required)).toBe(true);
      }
    }
  });
});
