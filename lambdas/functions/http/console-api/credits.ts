import { operation, type BoundOperation } from '../../../api/operation';
import { listLedger } from '../../../console/directory';
import { withUploadNames } from '../../../console/ledger-uploads';
import { CONSOLE_ROUTE_TABLE as routes } from '../../../console/route-table';
import { getBalance } from '../../../credits/credits';
import { ok } from '../../../platform/http/response';

// The console's credits panel: the balance and the newest ledger entries, an upload's named. Loaded at its first
// request (../console-api.ts).

export const operations = (): BoundOperation[] => [operation(routes.credits, async ({ member: p }) => ok({ balance: await getBalance(p.organizationId), ledger: await withUploadNames(p.organizationId, await listLedger(p.organizationId, 100)) }))];
