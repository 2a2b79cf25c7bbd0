import { nowIso, nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { processingBoundMs } from './pipeline/processing-bound';
import { claimStaleUploads, transitionUpload } from './upload-repository';
import type { UploadPorts } from './workflow';
import type { recoverOne as RecoverOne, UploadRecovery } from './reconcile-one';

// Recovery of uploads: every upload that still owes something is in the watch index with the time
// after which it counts as interrupted; this drives each one to a terminal state (completed, or
// failed and refunded, with its event) and settles what that state owes. See docs/reliability.md.

/** How long one recovery worker holds an upload it took over before another may try again. */
const LEASE_MS = 10 * 60_000;

export type { UploadRecovery } from './reconcile-one';

// What drives one upload (reconcile-one.ts: create's end, the workflow's steps, refunds) loads only
// when a run finds an upload to recover, so the recovery job's cold start, which mostly finds none,
// does not carry the planner, the normalizer and Finalize.
const recoverOne = async (...args: Parameters<typeof RecoverOne>): Promise<void> => (await import('./reconcile-one')).recoverOne(...args);

export async function recoverUploads(ports: UploadPorts): Promise<UploadRecovery> {
  const summary: UploadRecovery = { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 };
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS)) {
    try {
      await recoverOne(ports, upload, summary);
      logger.warn('upload recovered', { upload_id: upload.id, organization_id: upload.organization_id, found: upload.status });
    } catch (error) {
      // One upload's failure must not stop the others; its lease expires and the next run retries.
      logger.error('upload recovery failed', { upload_id: upload.id, status: upload.status, error: error as Error });
    }
  }
  if (Object.values(summary).some((n) => n > 0)) logger.warn('recovered interrupted uploads', { ...summary });
  return summary;
}

/**
 * Local runtime start: the in-process workflow runner lost every execution with the previous
 * process, so every upload it left owing something is taken up now, not after its stale time:
 * ready or processing ones start again (each step is idempotent), the rest are recovered. Only
 * uploads last changed before this process started: a create already running in it is left alone.
 */
export async function resumeUnfinishedUploads(ports: UploadPorts, startedBeforeIso: string): Promise<number> {
  let resumed = 0;
  // Which ones, so that an operator can follow each in the logs (a count says nothing to look up).
  const ids: string[] = [];
  for (const upload of await claimStaleUploads(nowMs(), LEASE_MS, startedBeforeIso)) {
    if (upload.status === 'ready_for_processing' || upload.status === 'processing') {
      if (upload.status === 'processing') await transitionUpload(upload.id, ['processing'], 'processing', {}, nowIso(), new Date(nowMs() + processingBoundMs()).toISOString());
      await ports.workflow(upload.id);
      resumed++;
      if (ids.length < 50) ids.push(upload.id);
    } else {
      await recoverOne(ports, upload, { resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 }).catch((error: unknown) =>
        logger.error('upload recovery failed', { upload_id: upload.id, error: error as Error }),
      );
    }
  }
  if (resumed) logger.warn('resumed unfinished uploads after a restart', { resumed, upload_ids: ids });
  return resumed;
}
