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
}

/** Binds a feature function to its route, typing the context from the route's schemas. */
export function operation<R extends AnyRouteSpec>(route: R, run: (ctx: ApiContext<R>) => Promise<OperationResult>): BoundOperation {
  return { key: routeKey(route), route, run: run as unknown as BoundOperation['run'] };
}
