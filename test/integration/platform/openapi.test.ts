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
  it('passes an independent validator (Redocly, recommended rules) with 0 errors', async () => {
    const { text } = await served();
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: text, absoluteRef: `${service.url}/openapi.json`, config });
    const describe = (p: (typeof problems)[number]) => `${p.ruleId}: ${p.message} at ${p.location.map((l) => l.pointer).join(', ')}`;
    const errors = problems.filter((p) => p.severity === 'error').map(describe);
    expect(errors).toEqual([]);
    // Warnings are listed so a new one is seen, not hidden. These three are deliberate: the project
    // declares no license; the document itself has no 4xx; DELETE on an upload is always 410 (spec).
    const warnings = problems.filter((p) => p.severity === 'warn').map(describe);
    expect(warnings.sort()).toEqual(
      [
        'info-license: Info object should contain `license` field. at #/info',
        'operation-4xx-response: Operation must have at least one `4XX` response. at #/paths/~1openapi.json/get/responses',
        'operation-4xx-response: Operation must have at least one `4XX` response. at #/paths/~1health/get/responses',
        'operation-4xx-response: Operation must have at least one `4XX` response. at #/paths/~1ready/get/responses',
        'operation-2xx-response: Operation must have at least one `2XX` response. at #/paths/~1api~1v1~1uploads~1{id}/delete/responses',
      ].sort(),
    );
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
