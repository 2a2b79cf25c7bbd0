import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { HttpError } from '../platform/errors';
import { matchRoute } from '../platform/http/match';
import type { RouteSpec } from '../platform/http/route-spec';
import { errorEnvelope } from './error-envelope';

/**
 * API Gateway sends anything no route matched to `$default`: 404 or 405 (with Allow) in the
 * envelope instead of API Gateway's own `{"message":"Not Found"}`.
 */
export const routeFallback = (routes: readonly RouteSpec[]) =>
  middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
    .use(errorEnvelope())
    .handler(async (event) => {
      const method = event.requestContext.http.method.toUpperCase();
      const { pathExists } = matchRoute(routes, method, event.rawPath);
      if (pathExists) {
        const allowed = routes.filter((r) => matchRoute([r], r.method, event.rawPath).match).map((r) => r.method);
        throw new HttpError(405, `Method ${method} not allowed on ${event.rawPath}`, { Allow: allowed.join(', ') });
      }
      throw new HttpError(404, `No route for ${method} ${event.rawPath}`);
    });
