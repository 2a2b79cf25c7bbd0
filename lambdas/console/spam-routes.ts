import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { spamRoutes } from '../spam/routes';
import { SpamId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

/** The spam monitoring panel's routes with their request schemas: the API's own where they are the same. */
export const spamPanelRoutes = {
  listSpam: at.listSpam,
  addSpam: { ...at.addSpam, request: { body: z.lazySchema(() => z.object({ phone_number: z.builtSchema(spamRoutes.add.request.body).shape.phone_number, verification_method: z._default(z.enum(['sms', 'call']), 'sms') })) } },
  deleteSpam: { ...at.deleteSpam, request: { params: SpamId } },
  verifySpam: { ...at.verifySpam, request: { params: SpamId, body: spamRoutes.verify.request.body } },
  resendSpam: { ...at.resendSpam, request: { params: SpamId, body: z.lazySchema(() => z.object({ method: z.optional(z.enum(['sms', 'call'])) })) } },
  spamHistory: { ...at.spamHistory, request: { params: SpamId } },
  spamScreenshot: { ...at.spamScreenshot, request: { params: SpamId, query: spamRoutes.screenshot.request.query } },
} satisfies Record<string, ConsoleRouteSpec>;
