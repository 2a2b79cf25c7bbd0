import { describe, expect, it } from 'vitest';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { consoleToken } from '../../support/console-token';
import { useTestService } from '../../support/runtime';
import { CONSOLE_ROUTES } from '../../../lambdas/console/routes';

// The console's routes are route specs on the public API's HTTP stack: the same body validation
// (the webhook schema's bounds included), routing answers, envelope and OpenAPI builder.

const service = useTestService();

async function call(method: string, path: string, body?: unknown) {
  const token = await consoleToken(service, service.userId);
  const res = await fetch(`${service.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, headers: res.headers, text: await res.text() };
}

describe('console API on the shared HTTP stack', () => {
  it('validates bodies with the API feature schemas: the webhook events bound and unknown fields', async () => {
    const tooMany = await call('POST', '/webhooks', { url: 'https://example.com/hook', events: Array.from({ length: 51 }, () => 'upload.completed') });
    expect(tooMany.status).toBe(400);
    expect(JSON.parse(tooMany.text).detail).toMatch(/^Invalid request body: events: /);
    const unknown = await call('POST', '/webhooks', { url: 'https://example.com/hook', secret: 'mine' });
    expect(unknown.status).toBe(400);
    expect(JSON.parse(unknown.text).detail).toMatch(/secret/);
  });

  it('answers 404 for no such path, 405 with Allow for another method, never cached, in the envelope', async () => {
    const missing = await call('GET', '/nothing/here');
    expect([missing.status, JSON.parse(missing.text)]).toEqual([404, { detail: 'Not found' }]);
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const wrong = await call('PUT', '/keys');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
    const me = await call('GET', '/me');
    expect(me.status).toBe(200);
    expect(me.headers.get('cache-control')).toBe('no-store');
    expect(me.headers.get('x-request-id')).toBeTruthy();
  });

  it('serves its own OpenAPI document: every console route, valid for an independent validator', async () => {
    const res = await call('GET', '/openapi.json');
    expect(res.status).toBe(200);
    const doc = JSON.parse(res.text) as { paths: Record<string, Record<string, unknown>> };
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`));
    expect(documented.sort()).toEqual(CONSOLE_ROUTES.map((r) => `${r.method} ${r.path}`).sort());
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: res.text, absoluteRef: `${service.url}/console/api/openapi.json`, config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });
});
