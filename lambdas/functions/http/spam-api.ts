import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { created, ok } from '../../platform/http/response';
import { addNumber, deleteNumber, getNumberView, history, listNumbers, resendCode, screenshot, verifyNumber } from '../../spam/numbers';
import { spamRoutes } from '../../spam/routes';
import type { SpamNumberPorts } from '../../spam/ports';

/** The spam monitoring API over the ports of its runtime's composition root. */
export const spamApi = (ports: SpamNumberPorts) =>
  apiHandler([
    operation(spamRoutes.add, async (ctx) => created(await addNumber(ports, ctx.principal.organization, ctx.body))),
    operation(spamRoutes.verify, async (ctx) => ok(await verifyNumber(ports, ctx.principal.organization, ctx.params.number_id, ctx.body.code))),
    operation(spamRoutes.resend, async (ctx) => ok(await resendCode(ports, ctx.principal.organization, ctx.params.number_id, ctx.body.method))),
    operation(spamRoutes.list, async (ctx) => ok(await listNumbers(ctx.principal.organization, ctx.query.limit, ctx.query.offset))),
    operation(spamRoutes.get, async (ctx) => ok(await getNumberView(ctx.principal.organization, ctx.params.number_id))),
    operation(spamRoutes.history, async (ctx) => ok(await history(ctx.principal.organization, ctx.params.number_id))),
    operation(spamRoutes.screenshot, async (ctx) => {
      const image = await screenshot(ctx.principal.organization, ctx.params.number_id, ctx.query.carrier);
      return { status: 200, contentType: image.contentType, bytes: image.bytes, headers: { 'cache-control': 'private, max-age=300' } };
    }),
    operation(spamRoutes.delete, async (ctx) => ok(await deleteNumber(ctx.principal.organization, ctx.params.number_id))),
  ]);
