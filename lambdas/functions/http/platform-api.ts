import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { ok } from '../../platform/http/response';
import { platformRoutes, READINESS_TIMEOUT_MS } from '../../platform/routes';
import { checkReadiness, readinessAnswer } from '../../platform/ready-probe';
import { dependencyChecks } from '../../platform/dependency-checks';
import { logger } from '../../platform/logger';

/** The platform function's own routes: the OpenAPI document, liveness and readiness. */
export const platformApi = () =>
  apiHandler([
    operation(platformRoutes.openapi, async (ctx) => {
      // Rarely asked for: the document's builder (zod's JSON Schema converter, the examples) loads here, not at a cold start.
      const { openApiDocument } = await import('../../api/openapi-document');
      const host = ctx.headers.host;
      return ok(openApiDocument(host ? `${ctx.headers['x-forwarded-proto'] ?? 'https'}://${host}` : undefined));
    }),
    operation(platformRoutes.health, async () => ok({ status: 'ok' }, { 'cache-control': 'no-store' })),
    operation(platformRoutes.ready, async () => {
      const readiness = await checkReadiness(dependencyChecks(), READINESS_TIMEOUT_MS, (name, error) => logger.warn('dependency not ready', { dependency: name, error: error as Error }));
      return { ...readinessAnswer(readiness), headers: { 'cache-control': 'no-store' } };
    }),
  ]);
