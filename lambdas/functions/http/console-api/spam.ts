import { operation, type BoundOperation } from '../../../api/operation';
import type { ConsolePorts } from '../../../composition/ports';
import { spamPanelRoutes as routes } from '../../../console/spam-routes';
import { ok } from '../../../platform/http/response';
import { deleteNumber as deleteSpamNumber, history as spamHistory, listNumbers, screenshot as spamScreenshot } from '../../../spam/numbers';
import { addNumber, resendCode, verifyNumber } from '../../../spam/number-enrollment';

// The console's spam monitoring panel (everyone: the people who watch caller-ID labels), over the
// spam feature's functions. Loaded at its first request (../console-api.ts).

export const operations = (ports: ConsolePorts): BoundOperation[] => [
  operation(routes.listSpam, async ({ member: p }) => ok(await listNumbers(p.organization, 100, 0))),
  operation(routes.addSpam, async ({ member: p, body }) => ok(await addNumber(ports, p.organization, body))),
  // Everyone may stop monitoring, as anyone may add a number: the API's delete (limits slot, phone guard, history).
  operation(routes.deleteSpam, async ({ member: p, params }) => ok(await deleteSpamNumber(p.organization, params.id))),
  operation(routes.verifySpam, async ({ member: p, params, body }) => ok(await verifyNumber(ports, p.organization, params.id, body.code))),
  operation(routes.resendSpam, async ({ member: p, params, body }) => ok(await resendCode(ports, p.organization, params.id, body.method))),
  operation(routes.spamHistory, async ({ member: p, params }) => ok(await spamHistory(p.organization, params.id))),
  // The image as a data: URL, so the page shows it under its strict CSP (img-src 'self' data:).
  operation(routes.spamScreenshot, async ({ member: p, params, query }) => {
    const image = await spamScreenshot(p.organization, params.id, query.carrier);
    return ok({ content_type: image.contentType, data_url: `data:${image.contentType};base64,${image.bytes.toString('base64')}` });
  }),
];
