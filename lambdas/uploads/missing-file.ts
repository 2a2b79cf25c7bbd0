// A download asked for a stored file of an upload that is not in the file store. Two causes, told
// apart by age: the files bucket's retention rule removed it (uploads/ objects expire
// `retention.uploadsDays` after they are written; AWS only, the stack passes the days as
// UPLOADS_RETENTION_DAYS), which is expected; or it was lost (deleted by hand, or, locally, moved
// to DATA_DIR/s3-quarantine/ by the embedded store's start-up check, local/file-store-repair.ts),
// which an operator must hear of. Both answer 410 Gone: the upload exists (not 404), and asking
// again will not bring the file back (not 5xx, whose meaning in the spec is "safe to retry").

export type StoredFile = 'original' | 'processed';

const DAY_MS = 86_400_000;

/**
 * Whether the retention rule may have removed the upload's files by now: its oldest file (the
 * original) was written at creation, so from `retentionDays` after `created_at`. 0: no rule (the
 * local runtime keeps uploads' files for good).
 */
export function pastRetention(createdAt: string, nowMs: number, retentionDays: number): boolean {
  return retentionDays > 0 && nowMs >= Date.parse(createdAt) + retentionDays * DAY_MS;
}

/** The client's `detail` for a file removed by the retention rule. */
export const expiredDetail = (retentionDays: number): string =>
  `This upload's files are no longer kept: they are removed ${retentionDays} days after the upload was created`;

/** The client's `detail` for a file that should be there and is not. */
export const lostDetail = (file: StoredFile): string =>
  `The ${file} file of this upload is missing from storage. The service has logged it for its operator; a new link will not help until the file is restored`;
