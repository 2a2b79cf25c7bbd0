import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import type * as z from '../platform/zod';
import type { Principal } from '../auth/authenticate';
import type { OperationResult } from '../platform/http/response';
import type { ConsolePrincipal } from '../console/principal';
import { routeKey, type AnyRouteSpec } from '../platform/http/route-spec';

type Part<R extends AnyRouteSpec, K extends 'body' | 'query' | 'params'> = R['request'] extends { [P in K]: infer S extends z.ZodMiniType }
  ? z.output<S>
  : undefined;

export interface ApiContext<R extends AnyRouteSpec = AnyRouteSpec> {
  event: APIGatewayProxyEventV2;
  requestId: string;
  route: R;
  /** The API key's principal: present on every route with `auth` true (the default). */
  principal: Principal;
  /** The signed-in person: present on every console route (`auth: 'console'`). */
  member: ConsolePrincipal;
  params: Part<R, 'params'>;
  query: Part<R, 'query'>;
  body: Part<R, 'body'>;
  /** The request body bytes (decoded from base64 when API Gateway encoded them). */
  rawBody: Buffer;
  /** Lower-cased request headers. */
  headers: Record<string, string>;
  /** Headers the platform adds to the response (rate-limit headers). */
  responseHeaders: Record<string, string>;
}

export interface BoundOperation {
  key: string;
  route: AnyRouteSpec;
  run: (ctx: ApiContext) => Promise<OperationResult>;
  /**
   * An operation loaded at its route's first request (lazyOperation): `route` is then the route
   * without its request schemas (what routing and the checks before validation read), and this
   * gives the operation itself with its full route, validated and run as any other.
   */
  load?: () => Promise<BoundOperation>;
}

/** Binds a feature function to its route, typing the context from the route's schemas. */
export function operation<R extends AnyRouteSpec>(route: R, run: (ctx: ApiContext<R>) => Promise<OperationResult>): BoundOperation {
  return { key: routeKey(route), route, run: run as unknown as BoundOperation['run'] };
}

/**
 * A route whose operation loads at its first request, e.g. through `import()` from a chunk of its
 * own (code splitting, docs/performance.md "Lazy cold starts"), so a cold start carries only the
 * route table. `route` is the route without `request`: method, path, authentication, scope, rate
 * limit and subscription, which the HTTP stack checks before it loads anything; `load` answers the
 * operations among which the route's own is found (by method and path), with their full routes,
 * whose schemas then validate the request as for any operation.
 */
export function lazyOperation(route: AnyRouteSpec, load: () => Promise<readonly BoundOperation[]>): BoundOperation {
  const key = routeKey(route);
  const run = () => Promise.reject(new Error(`${key} runs through its loaded operation`));
  return {
    key,
    route,
    run,
    load: async () => {
      const op = (await load()).find((o) => o.key === key);
      if (!op) throw new Error(`the operations loaded for ${key} do not serve it`);
      return op;
    },
  };
}
