import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { routeFallback } from '../../api/route-fallback';
import { ROUTES } from '../../api/routes';
import { ok } from '../../platform/http/response';
import { buildOpenApi } from '../../platform/openapi';
import { platformRoutes } from '../../platform/routes';

const routed = apiHandler([
  operation(platformRoutes.openapi, async (ctx) => {
    const host = ctx.headers.host;
    return ok(buildOpenApi(ROUTES, host ? `${ctx.headers['x-forwarded-proto'] ?? 'https'}://${host}` : undefined));
  }),
]);
const fallback = routeFallback(ROUTES);

export const handler = (event: APIGatewayProxyEventV2, context: Context) => (event.routeKey === '$default' ? fallback(event, context) : routed(event, context));
