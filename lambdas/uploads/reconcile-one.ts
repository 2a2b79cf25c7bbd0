import { nowMs } from '../platform/clock';
import { chargeOf } from '../credits/credits';
import { becomeReady, discardUncharged } from './create-upload';
import { failUpload, settleFailedUpload } from './pipeline/fail';
import { finalize } from './pipeline/finalize';
import type { UploadRecord } from './upload';
import { deleteChargingUpload } from './upload-repository';
import type { UploadPorts } from './workflow';

// One interrupted upload driven to a terminal state (reconcile.ts finds them): loaded by the
// recovery job only when it has found one.

/** A ready upload whose workflow would not start for this long is failed and refunded. */
const READY_GIVE_UP_MS = 60 * 60_000;

export interface UploadRecovery {
  resumed: number;
  removed: number;
  restarted: number;
  failed: number;
  settled: number;
}

export async function recoverOne(ports: UploadPorts, upload: UploadRecord, summary: UploadRecovery): Promise<void> {
  switch (upload.status) {
    case 'charging': {
      // The balance's in-flight changes count too: a debit applied but not yet in the ledger.
      const charge = await chargeOf(upload.organization_id, `upload:${upload.id}`, upload.id);
      if (charge) {
        await becomeReady(ports, upload, charge.amount);
        await ports.workflow(upload.id);
        summary.resumed++;
      } else {
        // A pool upload is made again under the same id by the next pool run (docs/reliability.md),
        // which may be writing its files right now: only its record goes.
        if (upload.source === 'api_pool') await deleteChargingUpload(upload.id);
        else await discardUncharged(upload);
        summary.removed++;
      }
      return;
    }
    case 'ready_for_processing':
      if (nowMs() - Date.parse(upload.updated_at) > READY_GIVE_UP_MS) {
        await settleOwedToPool(ports, await failUpload(ports, upload, 'Processing could not be started'));
        summary.failed++;
      } else {
        await ports.workflow(upload.id);
        summary.restarted++;
      }
      return;
    case 'processing':
      await settleOwedToPool(ports, await failUpload(ports, upload, 'Processing did not finish in time'));
      summary.failed++;
      return;
    case 'completed':
      await finalize(ports, { upload_id: upload.id });
      await settleOwedToPool(ports, upload);
      summary.settled++;
      return;
    case 'failed':
      await settleFailedUpload(ports, upload);
      await settleOwedToPool(ports, upload);
      summary.settled++;
      return;
    default:
      return;
  }
}

/** An ended pool upload's contacts, had its workflow not reached (or not finished) NotifyPool. */
async function settleOwedToPool(ports: UploadPorts, upload: UploadRecord): Promise<void> {
  if (upload.source === 'api_pool' && (upload.status === 'completed' || upload.status === 'failed')) await ports.settlePool(upload);
}
