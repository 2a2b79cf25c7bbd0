// An entry as a function that normalizes one number per request has it (normalize-on-demand.test.ts).
import { normalizeUsCaOnDemand } from '../../lambdas/classification/normalize-on-demand';

export const handler = async (event: { phone: string }) => normalizeUsCaOnDemand(event.phone);
