import middy from '@middy/core';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { apiHandler } from '../api/api-handler';
import { errorEnvelope } from '../api/error-envelope';
import { ROUTES } from '../api/routes';
import { HttpError } from './errors';
import { matchRoute } from './http/match';
import { operation } from './http/operation';
import { ok } from './http/response';
import { buildOpenApi } from './openapi';
import { platformRoutes } from './routes';

const routed = apiHandler([
  operation(platformRoutes.openapi, async (ctx) => {
    const host = ctx.headers.host;
    const proto = ctx.headers['x-forwarded-proto'] ?? 'https';
    return ok(buildOpenApi(ROUTES, host ? `${proto}://${host}` : undefined));
  }),
]);

// API Gateway sends anything no route matched to `$default`: answer 404 or 405 in the envelope
// instead of API Gateway's own `{"message":"Not Found"}`.
const fallback = middy<APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Error, Context>()
  .use(errorEnvelope())
  .handler(async (event) => {
    const method = event.requestContext.http.method.toUpperCase();
    const { pathExists } = matchRoute(ROUTES, method, event.rawPath);
    if (pathExists) {
      const allowed = ROUTES.filter((r) => matchRoute([r], r.method, event.rawPath).match).map((r) => r.method);
      throw new HttpError(405, `Method ${method} not allowed on ${event.rawPath}`, { Allow: allowed.join(', ') });
    }
    throw new HttpError(404, `No route for ${method} ${event.rawPath}`);
  });

export const handler = (event: APIGatewayProxyEventV2, context: Context) =>
  event.routeKey === '$default' ? fallback(event, context) : routed(event, context);
