import { describe, expect, it } from 'vitest';
import { routeKey } from '../../../lambdas/platform/http/route-spec';
import type { ConsolePorts } from '../../../lambdas/composition/ports';
import { CONSOLE_LAZY_ROUTES, CONSOLE_PANELS } from '../../../lambdas/functions/http/console-api';
import { CONSOLE_ROUTE_TABLE } from '../../../lambdas/console/route-table';
import { consoleRoutes } from '../../../lambdas/console/routes';

// The console API's routes load with their panels (lambdas/functions/http/console-api.ts): every
// route of the console is served, once, by the panel the entry names for it, with its full route
// (the schemas that validate its requests and that the OpenAPI document shows).

describe('console panels', () => {
  it('serve every console route but /me and the document, each from the panel named for it, with its full route', async () => {
    const lazy = CONSOLE_LAZY_ROUTES.map(([name]) => name);
    expect(new Set(lazy).size).toBe(lazy.length);
    expect([...lazy, 'openapi', 'me'].sort()).toEqual(Object.keys(consoleRoutes).sort());
    const served = new Map<string, string>();
    for (const [panel, load] of Object.entries(CONSOLE_PANELS)) {
      for (const op of (await load()).operations({} as ConsolePorts)) {
        expect(served.has(op.key), `${op.key} served twice`).toBe(false);
        served.set(op.key, panel);
        const name = lazy.find((n) => routeKey(consoleRoutes[n]) === op.key)!;
        expect(op.route, op.key).toBe(consoleRoutes[name]);
      }
    }
    for (const [name, panel] of CONSOLE_LAZY_ROUTES) expect(served.get(routeKey(CONSOLE_ROUTE_TABLE[name])), name).toBe(panel);
  });

  it('keep each route of the table as its full route has it, request schemas apart', () => {
    for (const [name, route] of Object.entries(consoleRoutes)) {
      const { request: _request, ...rest } = route as typeof route & { request?: unknown };
      expect(rest, name).toEqual(CONSOLE_ROUTE_TABLE[name as keyof typeof CONSOLE_ROUTE_TABLE]);
    }
  });
});
