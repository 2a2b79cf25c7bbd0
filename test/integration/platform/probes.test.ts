import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { reloadConfig } from '../../../lambdas/platform/config';

// /health (liveness) and /ready (the table and the file store answer): JSON, no authentication,
// through the same local server that also serves the console's pages (which once answered /health
// with its HTML).
const service = useTestService();

async function withEnv<T>(name: string, value: string, fn: () => Promise<T>): Promise<T> {
  const before = process.env[name];
  process.env[name] = value;
  reloadConfig();
  try {
    return await fn();
  } finally {
    if (before === undefined) delete process.env[name];
    else process.env[name] = before;
    reloadConfig();
  }
}

describe('health and readiness probes', () => {
  it('/health answers 200 JSON without a key, whatever the dependencies', async () => {
    const res = await service.request('GET', '/health', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-request-id')).toEqual(expect.any(String));
    expect(await res.json()).toEqual({ status: 'ok' });
    const down = await withEnv('TABLE_NAME', 'no-such-table', () => service.request('GET', '/health', { key: null }));
    expect(down.status).toBe(200);
  });

  it('/ready answers 200 when the table and the file store answer', async () => {
    const res = await service.request('GET', '/ready', { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ status: 'ready', checks: { table: { status: 'ok', ms: expect.any(Number) }, file_store: { status: 'ok', ms: expect.any(Number) } } });
  });

  it('/ready answers 503 naming the table when the table does not answer', async () => {
    const res = await withEnv('TABLE_NAME', 'no-such-table', () => service.request('GET', '/ready', { key: null }));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { detail: { error: string; message: string; checks: Record<string, { status: string; error?: string }> } };
    expect(body.detail).toMatchObject({ error: 'not_ready', message: 'Not ready: no answer from table (ResourceNotFoundException)' });
    expect(body.detail.checks).toMatchObject({ table: { status: 'failed', error: 'ResourceNotFoundException' }, file_store: { status: 'ok' } });
  });

  it('/ready answers 503 naming the file store when its bucket is missing', async () => {
    const res = await withEnv('FILES_BUCKET', 'no-such-bucket', () => service.request('GET', '/ready', { key: null }));
    expect(res.status).toBe(503);
    const body = (await res.json()) as { detail: { message: string; checks: Record<string, { status: string; error?: string }> } };
    expect(body.detail.message).toBe('Not ready: no answer from file_store (NoSuchBucket)');
    expect(body.detail.checks.table!.status).toBe('ok');
  });

  it('the console’s pages never shadow a route of the API: /health, /ready and /openapi.json stay JSON, other paths stay the console’s', async () => {
    for (const path of ['/health', '/ready', '/openapi.json']) {
      const res = await fetch(`${service.url}${path}`);
      expect(res.headers.get('content-type'), path).toBe('application/json');
    }
    const wrongMethod = await fetch(`${service.url}/health`, { method: 'POST' });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({ detail: 'Method POST not allowed on /health' });
    const page = await fetch(`${service.url}/uploads`);
    expect(page.headers.get('content-type')).toMatch(/text\/html|text\/plain/);
  });

  it('a path under /api in another case or behind a double slash is the API’s 404, in its envelope, naming the path sent', async () => {
    const auth = { authorization: `Bearer ${service.apiKey}` };
    for (const [method, path] of [['GET', '//api/v1/credits/balance'], ['GET', '/API/v2/contacts'], ['GET', '/Api'], ['POST', '//api/v2/contacts'], ['GET', '///api/v1/uploads']] as const) {
      const res = await fetch(`${service.url}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, ...(method === 'POST' ? { body: '{"phone":"2125550169"}' } : {}) });
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(res.headers.get('content-type'), `${method} ${path}`).toBe('application/json');
      expect(await res.json(), `${method} ${path}`).toEqual({ detail: `No route for ${method} ${path}` });
    }
  });
});
