import * as z from '../platform/zod';
import { authErrors } from '../platform/http/common-schemas';
import type { RouteSpec } from '../platform/http/route-spec';

export const CreditBalance = z.lazySchema(() => z
  .object({
    total: z.number().check(z.int(), z.describe('subscription + purchased; the figure that gates credit-consuming endpoints')),
    subscription: z.number().check(z.int(), z.describe('monthly allocation; replenished each billing period and capped')),
    purchased: z.number().check(z.int(), z.describe('one-time top-ups; uncapped')),
  })
  .check(z.meta({ id: 'CreditBalance' })));

export const creditsRoutes = {
  getBalance: {
    method: 'GET',
    path: '/api/v1/credits/balance',
    fn: 'credits',
    operationId: 'getCreditBalance',
    summary: 'Credit balance of the key’s organization',
    tags: ['credits'],
    responses: { 200: { description: 'Balance', schema: CreditBalance }, ...authErrors },
  },
} satisfies Record<string, RouteSpec>;
