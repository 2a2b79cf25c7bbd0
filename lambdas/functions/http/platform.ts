import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { lazyModule } from '../../platform/aws/lazy-module';
import { platformApi } from './platform-api';

const routed = platformApi();
// API Gateway sends anything no route matched to `$default`: 404/405 in the envelope. Telling the
// two apart takes every route of the API (their tables, about 20 KB), which the readiness probe
// (the hot request) does not: they load at the first unmatched request, from a chunk of their own
// (docs/performance.md, "Cold imports, fifteenth step").
const fallback = lazyModule(async () => {
  const [{ routeFallback }, { ROUTES }] = await Promise.all([import('../../api/route-fallback'), import('../../api/routes')]);
  return routeFallback(ROUTES);
});

export const handler = async (event: APIGatewayProxyEventV2, context: Context) => (event.routeKey === '$default' ? (await fallback())(event, context) : routed(event, context));
