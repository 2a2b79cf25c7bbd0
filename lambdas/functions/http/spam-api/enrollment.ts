import { operation, type BoundOperation } from '../../../api/operation';
import { created, ok } from '../../../platform/http/response';
import { addNumber, resendCode, verifyNumber } from '../../../spam/number-enrollment';
import { spamRoutes } from '../../../spam/routes';
import type { SpamNumberPorts } from '../../../spam/ports';

/** Registering a number and verifying it: loaded at the first such request (spam-api.ts). */
export const operations = (ports: SpamNumberPorts): BoundOperation[] => [
  operation(spamRoutes.add, async (ctx) => created(await addNumber(ports, ctx.principal.organization, ctx.body))),
  operation(spamRoutes.verify, async (ctx) => ok(await verifyNumber(ports, ctx.principal.organization, ctx.params.number_id, ctx.body.code))),
  operation(spamRoutes.resend, async (ctx) => ok(await resendCode(ports, ctx.principal.organization, ctx.params.number_id, ctx.body.method))),
];
