import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { routeFallback } from '../../api/route-fallback';
import { ROUTES } from '../../api/routes';
import { platformApi } from './platform-api';

const routed = platformApi();
// API Gateway sends anything no route matched to `$default`: 404/405 in the envelope.
const fallback = routeFallback(ROUTES);

export const handler = (event: APIGatewayProxyEventV2, context: Context) => (event.routeKey === '$default' ? fallback(event, context) : routed(event, context));
