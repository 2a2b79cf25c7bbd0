import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { ok } from '../../platform/http/response';
import { getBalance } from '../../credits/credits';
import { creditsRoutes } from '../../credits/routes';

export const handler = apiHandler([
  operation(creditsRoutes.getBalance, async (ctx) => ok(await getBalance(ctx.principal.organizationId))),
]);
