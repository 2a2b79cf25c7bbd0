import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { routeFallback } from '../../api/route-fallback';
import { ROUTES } from '../../api/routes';
import { ok } from '../../platform/http/response';
import { openApiDocument } from '../../api/openapi-document';
import { platformRoutes, READINESS_TIMEOUT_MS } from '../../platform/routes';
import { checkReadiness, readinessAnswer } from '../../platform/ready-probe';
import { dependencyChecks } from '../../platform/dependency-checks';
import { logger } from '../../platform/logger';

const routed = apiHandler([
  operation(platformRoutes.openapi, async (ctx) => {
    const host = ctx.headers.host;
    return ok(openApiDocument(host ? `${ctx.headers['x-forwarded-proto'] ?? 'https'}://${host}` : undefined));
  }),
  operation(platformRoutes.health, async () => ok({ status: 'ok' }, { 'cache-control': 'no-store' })),
  operation(platformRoutes.ready, async () => {
    const readiness = await checkReadiness(dependencyChecks(), READINESS_TIMEOUT_MS, (name, error) => logger.warn('dependency not ready', { dependency: name, error: error as Error }));
    return { ...readinessAnswer(readiness), headers: { 'cache-control': 'no-store' } };
  }),
]);
const fallback = routeFallback(ROUTES);

export const handler = (event: APIGatewayProxyEventV2, context: Context) => (event.routeKey === '$default' ? fallback(event, context) : routed(event, context));
