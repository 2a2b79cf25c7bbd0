import { nowIso, nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { getLedgerEntry } from '../credits/balance-repository';
import { deleteChargingUpload, listStaleCharging, transitionUpload } from './upload-repository';
import { startUploadWorkflow } from './workflow';

/** A create call finishes in well under this; anything older in `charging` was interrupted. */
const STALE_MS = 15 * 60_000;

/**
 * Finishes uploads a crash left in `charging`: charged ones (the ledger has `upload:<id>`) become
 * ready and start processing; uncharged ones are removed. Never charges anything itself.
 */
export async function reconcileStaleUploads(): Promise<{ resumed: number; removed: number }> {
  let resumed = 0;
  let removed = 0;
  for (const upload of await listStaleCharging(new Date(nowMs() - STALE_MS).toISOString())) {
    const charge = await getLedgerEntry(upload.organization_id, `upload:${upload.id}`);
    if (charge) {
      const amount = -(charge.subscription_delta + charge.purchased_delta);
      if (await transitionUpload(upload.id, ['charging'], 'ready_for_processing', { credits_charged: amount }, nowIso())) {
        await startUploadWorkflow(upload.id);
        resumed++;
      }
    } else {
      await deleteChargingUpload(upload.id);
      removed++;
    }
  }
  if (resumed || removed) logger.warn('reconciled interrupted uploads', { resumed, removed });
  return { resumed, removed };
}
