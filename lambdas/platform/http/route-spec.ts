import type { ZodMiniType as ZodType } from '../zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A Lambda function of the API; its entry is `lambdas/functions/http/<name>.ts`. */
export type ApiFunctionName = 'platform' | 'credits' | 'uploads' | 'contacts' | 'webhooks' | 'spam';

export type Scope = 'uploads:write' | 'uploads:read' | 'webhooks:manage';

/** A response header this route sets itself (the platform's own headers are added by the document builder). */
export interface HeaderSpec {
  description: string;
  required?: boolean;
  schema: ZodType;
}

export interface ResponseSpec {
  description: string;
  schema?: ZodType;
  /** Defaults to application/json. */
  contentType?: string;
  headers?: Record<string, HeaderSpec>;
}

/**
 * One route of the public API or the console. The same list drives the CDK routes, the local server's router,
 * request validation and the OpenAPI document, so none of them can drift from the others.
 */
export interface RouteSpec {
  method: HttpMethod;
  /** API Gateway path template, e.g. `/api/v1/uploads/{id}`. */
  path: string;
  fn: ApiFunctionName;
  operationId: string;
  summary: string;
  /** What an integrator needs beyond the summary; the document adds the access rules (auth, scope, rate limit, subscription). */
  description?: string;
  tags: string[];
  /**
   * Who may call it: a Bearer API key (true, the default), anyone (false), or a person signed in
   * to the console (`'console'`: a verified OpenID Connect access token, never an API key).
   */
  auth?: boolean | 'console';
  scope?: Scope;
  /** Counts against the per-key and per-organization token buckets. */
  rateLimited?: boolean;
  /** Needs an active subscription (403 otherwise). */
  subscription?: boolean;
  /** Not in the interface spec (service-spec.md): an addition of this implementation; the document marks it `x-extension: true`. */
  extension?: boolean;
  request?: {
    params?: ZodType;
    query?: ZodType;
    /** Request headers the route reads (documented; the route validates them itself). */
    headers?: Record<string, HeaderSpec>;
    /** JSON body schema. Routes that take other content types parse the raw body themselves. */
    body?: ZodType;
    /** Content types the route accepts; default application/json when a body schema is given. */
    contentTypes?: string[];
    /**
     * Schemas of the non-JSON bodies (e.g. `multipart/form-data`) by content type, for the OpenAPI
     * document; the route parses those bodies itself, with the same field schemas.
     */
    forms?: Record<string, ZodType>;
  };
  responses: Record<number, ResponseSpec>;
}

/** A route of the console's API: served by the console's own function (lambdas/console/routes.ts). */
export type ConsoleRouteSpec = Omit<RouteSpec, 'fn' | 'auth'> & { fn: 'console'; auth: 'console' };

/** Any route the HTTP stack serves. */
export type AnyRouteSpec = RouteSpec | ConsoleRouteSpec;

export const routeKey = (route: Pick<AnyRouteSpec, 'method' | 'path'>): string => `${route.method} ${route.path}`;
