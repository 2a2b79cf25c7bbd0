import type { AnyRouteSpec } from './route-spec';

export interface RouteMatch<R extends AnyRouteSpec = AnyRouteSpec> {
  route: R;
  params: Record<string, string>;
}

/** Matches a concrete path against API Gateway path templates; `methodAllowed` tells 404 from 405. */
export function matchRoute<R extends AnyRouteSpec>(
  routes: readonly R[],
  method: string,
  path: string,
): { match: RouteMatch<R> | null; pathExists: boolean } {
  let pathExists = false;
  for (const route of routes) {
    const params = matchPath(route.path, path);
    if (!params) continue;
    pathExists = true;
    if (route.method === method) return { match: { route, params }, pathExists };
  }
  return { match: null, pathExists };
}

export function matchPath(template: string, path: string): Record<string, string> | null {
  const t = template.split('/');
  const p = path.replace(/\/+$/, '').split('/');
  if (t.length !== p.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const seg = t[i]!;
    const value = p[i]!;
    if (seg.startsWith('{') && seg.endsWith('}')) {
      if (!value) return null;
      try {
        params[seg.slice(1, -1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (seg !== value) {
      return null;
    }
  }
  return params;
}
