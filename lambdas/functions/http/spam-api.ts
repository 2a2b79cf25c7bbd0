import { apiHandler } from '../../api/api-handler';
import { lazyOperation, operation } from '../../api/operation';
import { lazyModule } from '../../platform/aws/lazy-module';
import { ok } from '../../platform/http/response';
import { deleteNumber, getNumberView, history, listNumbers, screenshot } from '../../spam/numbers';
import { spamRoutes } from '../../spam/routes';
import type { SpamNumberPorts } from '../../spam/ports';

// A cold start carries the reads (the list, a number, its history and screenshots) and removal.
// Registering and verifying a number (reading the phone number, sending its code, the webhook of
// a verified number) load at the first such request, from a chunk of their own
// (./spam-api/enrollment.ts; docs/performance.md, "Cold imports, thirteenth step").

/** The spam monitoring API over the ports of its runtime's composition root. */
export const spamApi = (ports: SpamNumberPorts) => {
  const enrollment = lazyModule(async () => (await import('./spam-api/enrollment')).operations(ports));
  return apiHandler([
    lazyOperation(spamRoutes.add, enrollment),
    lazyOperation(spamRoutes.verify, enrollment),
    lazyOperation(spamRoutes.resend, enrollment),
    operation(spamRoutes.list, async (ctx) => ok(await listNumbers(ctx.principal.organization, ctx.query.limit, ctx.query.offset))),
    operation(spamRoutes.get, async (ctx) => ok(await getNumberView(ctx.principal.organization, ctx.params.number_id))),
    operation(spamRoutes.history, async (ctx) => ok(await history(ctx.principal.organization, ctx.params.number_id))),
    operation(spamRoutes.screenshot, async (ctx) => {
      const image = await screenshot(ctx.principal.organization, ctx.params.number_id, ctx.query.carrier);
      return { status: 200, contentType: image.contentType, bytes: image.bytes, headers: { 'cache-control': 'private, max-age=300' } };
    }),
    operation(spamRoutes.delete, async (ctx) => ok(await deleteNumber(ctx.principal.organization, ctx.params.number_id))),
  ]);
};
