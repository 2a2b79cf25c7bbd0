import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../lambdas/api/routes';
import { matchPath, matchRoute } from '../../../lambdas/platform/http/match';
import { buildOpenApi } from '../../../lambdas/platform/openapi';
import { KEY_PREFIX, displayPrefix, generateApiKey } from '../../../lambdas/auth/api-key';

describe('route matching', () => {
  it('extracts path parameters and tells 404 from 405', () => {
    expect(matchPath('/api/v1/uploads/{id}', '/api/v1/uploads/abc')).toEqual({ id: 'abc' });
    expect(matchPath('/api/v1/uploads/{id}', '/api/v1/uploads/')).toBeNull();
    expect(matchPath('/api/v1/uploads/{id}', '/api/v1/uploads/a/b')).toBeNull();
    expect(matchRoute(ROUTES, 'GET', '/api/v1/credits/balance').match?.route.operationId).toBe('getCreditBalance');
    expect(matchRoute(ROUTES, 'DELETE', '/api/v1/credits/balance')).toEqual({ match: null, pathExists: true });
    expect(matchRoute(ROUTES, 'GET', '/nothing/here')).toEqual({ match: null, pathExists: false });
  });

  it('has unique route keys and operation ids', () => {
    const keys = ROUTES.map((r) => `${r.method} ${r.path}`);
    expect(new Set(keys).size).toBe(keys.length);
    const ids = ROUTES.map((r) => r.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('OpenAPI document', () => {
  it('describes every route with its responses', () => {
    const doc = buildOpenApi(ROUTES) as { openapi: string; paths: Record<string, Record<string, { operationId: string; responses: object }>> };
    expect(doc.openapi).toBe('3.1.0');
    for (const route of ROUTES) {
      const op = doc.paths[route.path]?.[route.method.toLowerCase()];
      expect(op?.operationId, `${route.method} ${route.path}`).toBe(route.operationId);
      expect(Object.keys(op!.responses).length).toBeGreaterThan(0);
    }
  });
});

describe('API keys', () => {
  it('are svc_live_ plus 32 URL-safe characters, with a 12-character display prefix', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^svc_live_[A-Za-z0-9_-]{32}$/);
    expect(key.startsWith(KEY_PREFIX)).toBe(true);
    expect(displayPrefix(key)).toHaveLength(12);
    expect(generateApiKey()).not.toBe(key);
  });
});
