import { request } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { buildConsole } from '../../browser/browser';
import { suggestMapping } from '../../../lambdas/console/web-upload';

// The console's pages beside the API on one server: app routes get index.html with the strict CSP,
// the API and its 404s are untouched, and no path reaches a file outside web/dist.

const service = useTestService();
beforeAll(() => buildConsole());

/** A request with the path exactly as written (fetch would normalize dot segments away). */
function raw(path: string): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const url = new URL(service.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('console pages beside the API', () => {
  it('serves index.html with the strict CSP for app routes and hashed assets as immutable', async () => {
    for (const path of ['/', '/uploads/new', '/developer', '/callback']) {
      const res = await raw(path);
      expect(res.status).toBe(200);
      expect(res.body).toContain('<div id="app">');
      expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; script-src 'self'; style-src 'self';/);
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec((await raw('/')).body)![1]!;
    const js = await raw(asset);
    expect(js.headers['content-type']).toContain('text/javascript');
    expect(js.headers['cache-control']).toContain('immutable');
  });

  it('leaves the API alone: its routes, its 404s and the OpenAPI document', async () => {
    expect((await raw('/api/v1/nothing')).body).toBe('{"detail":"No route for GET /api/v1/nothing"}');
    expect(JSON.parse((await raw('/openapi.json')).body).openapi).toBe('3.1.0');
    expect((await raw('/api/v1/credits/balance')).status).toBe(401);
  });

  it('never serves a file outside web/dist', async () => {
    for (const path of ['/../package.json', '/%2e%2e/%2e%2e/package.json', '/assets/..%2f..%2f..%2fpackage.json', '/..%5c..%5cpackage.json', '/%2e%2e%2flocal%2fseed.ts', '/missing.js']) {
      const res = await raw(path);
      expect(res.body, path).not.toContain('"name": "phone-validation-service"');
      expect(res.body, path).not.toContain('ensureDemoAccount');
      expect(res.status, path).toBe(404);
    }
  });
});

describe('mapping suggestions', () => {
  it('suggests phone columns by name or by content, and name columns by header', () => {
    expect(suggestMapping(['First Name', 'Last Name', 'Cell', 'Notes'], [['A', 'B', '555', 'x']])).toEqual({ phone_columns: ['Cell'], first_name_column: 'First Name', last_name_column: 'Last Name' });
    expect(suggestMapping(['name', 'contact', 'other'], [['A', '(212) 555-0143', 'x'], ['B', '415-201-1001', 'y']])).toEqual({ phone_columns: ['contact'], full_name_column: 'name' });
    // Columns the API cannot map are never suggested: blank names, names several columns share.
    expect(suggestMapping(['', '', 'mobile'], [['(212) 555-0143', '415-201-1001', '(212) 555-0144']])).toEqual({ phone_columns: ['mobile'] });
    expect(suggestMapping(['phone', 'phone', 'cell'], [['(212) 555-0143', '415-201-1001', '']])).toEqual({ phone_columns: ['cell'] });
    expect(suggestMapping(['a', 'b'], [['x', 'y']])).toEqual({ phone_columns: [] });
  });
});
