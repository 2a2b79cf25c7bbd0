import { apiHandler } from '../api/api-handler';
import { operation } from '../platform/http/operation';
import { ok } from '../platform/http/response';
import { getBalance } from './credits';
import { creditsRoutes } from './routes';

export const handler = apiHandler([
  operation(creditsRoutes.getBalance, async (ctx) => ok(await getBalance(ctx.principal.organizationId))),
]);
