import { nowIso, nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { chargeOf } from '../credits/credits';
import { becomeReady } from './create-upload';
import { failUpload, settleFailedUpload } from './pipeline/fail';
import { finalize } from './pipeline/finalize';
import { processingBoundMs } from './pipeline/prepare';
import type { UploadRecord } from './upload';
import { claimStaleUploads, deleteChargingUpload, transitionUpload } from './upload-repository';
import type { UploadPorts } from './workflow';

// Recovery of uploads: every upload that still owes something is in the watch index with the time
// after which it counts as interrupted; this drives each one to a terminal state (completed, or
// failed and refunded, with its event) and settles what that state owes. See docs/reliability.md.

/** How long one recovery worker holds an upload it took over before another may try again. */
const LEASE_MS = 10 * 60_000;
/** A ready upload whose workflow would not start for this long is failed and refunded. */
const READY_GIVE_UP_MS = 60 * 60_000;

export interface UploadRecovery {
  resumed: number;
  removed: number;
  restarted: number;
  failed: number;
  settled: number;
}

export async function recoverUploads(ports: UploadPorts): Promise<UploadRecovery> {
  const summary: UploadRecovery = { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 };
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS)) {
    try {
      await recoverOne(ports, upload, summary);
    } catch (error) {
      // One upload's failure must not stop the others; its lease expires and the next run retries.
      logger.error('upload recovery failed', { upload_id: upload.id, status: upload.status, error: error as Error });
    }
  }
  if (Object.values(summary).some((n) => n > 0)) logger.warn('recovered interrupted uploads', { ...summary });
  return summary;
}

async function recoverOne(ports: UploadPorts, upload: UploadRecord, summary: UploadRecovery): Promise<void> {
  switch (upload.status) {
    case 'charging': {
      // The balance's in-flight changes count too: a debit applied but not yet in the ledger.
      const charge = await chargeOf(upload.organization_id, `upload:${upload.id}`, upload.id);
      if (charge) {
        await becomeReady(ports, upload, charge.amount);
        await ports.workflow(upload.id);
        summary.resumed++;
      } else {
        await deleteChargingUpload(upload.id);
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

/**
 * Local runtime start: the in-process workflow runner lost every execution with the previous
 * process, so every upload it left owing something is taken up now, not after its stale time:
 * ready or processing ones start again (each step is idempotent), the rest are recovered. Only
 * uploads last changed before this process started: a create already running in it is left alone.
 */
export async function resumeUnfinishedUploads(ports: UploadPorts, startedBeforeIso: string): Promise<number> {
  let resumed = 0;
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS, startedBeforeIso)) {
    if (upload.status === 'ready_for_processing' || upload.status === 'processing') {
      if (upload.status === 'processing') await transitionUpload(upload.id, ['processing'], 'processing', {}, nowIso(), new Date(nowMs() + processingBoundMs()).toISOString());
      await ports.workflow(upload.id);
      resumed++;
    } else {
      await recoverOne(ports, upload, { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 }).catch((error: unknown) =>
        logger.error('upload recovery failed', { upload_id: upload.id, error: error as Error }),
      );
    }
  }
  if (resumed) logger.warn('resumed unfinished uploads after a restart', { resumed });
  return resumed;
}
