import { nowIso, nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { getUpload } from '../uploads/upload-repository';
import { claimStaleDrafts, transitionDraft, type WebDraft } from './web-upload-repository';

// Console drafts left in a passing state by a request that died (docs/reliability.md):
//   validating -> pending_mapping: nothing was decided; the person maps again.
//   confirming -> confirmed when its upload (same id) exists and was charged;
//              -> awaiting_confirmation when there is no upload: an upload is charged only after
//                 its `charging` record exists, so nothing was charged;
//              -> left for the next run while its upload is still `charging` (upload recovery
//                 decides that one first: charged, it becomes visible; not, it is removed).

/** How long a claimed draft is this run's (a second run meanwhile skips it). */
const LEASE_MS = 10 * 60_000;

export interface DraftRecovery {
  remapped: number;
  confirmed: number;
  reopened: number;
  waiting: number;
}

export type DraftOutcome = keyof DraftRecovery;

/** What a draft interrupted in a passing state becomes, from the upload it would have become. */
export function draftOutcome(status: WebDraft['status'], upload: { status: string } | null): DraftOutcome {
  if (status === 'validating') return 'remapped';
  if (!upload) return 'reopened';
  return upload.status === 'charging' ? 'waiting' : 'confirmed';
}

/** Every draft interrupted in a passing state: past its bound, or (a restart) last changed before `changedBeforeIso`. */
export async function recoverDrafts(changedBeforeIso?: string): Promise<DraftRecovery> {
  const summary: DraftRecovery = { remapped: 0, confirmed: 0, reopened: 0, waiting: 0 };
  for (const draft of await claimStaleDrafts(nowMs(), LEASE_MS, changedBeforeIso)) {
    try {
      const outcome = draftOutcome(draft.status, draft.status === 'confirming' ? await getUpload(draft.id) : null);
      const moved =
        outcome === 'remapped'
          ? await transitionDraft(draft.id, ['validating'], 'pending_mapping', { validated_rows: 0, validation: null, failure: null }, nowIso())
          : outcome === 'confirmed'
            ? await transitionDraft(draft.id, ['confirming'], 'confirmed', {}, nowIso())
            : outcome === 'reopened'
              ? await transitionDraft(draft.id, ['confirming'], 'awaiting_confirmation', {}, nowIso())
              : draft;
      if (moved) summary[outcome]++;
    } catch (error) {
      // One draft's failure must not stop the others; its lease lapses and the next run retries.
      logger.error('draft recovery failed', { upload_id: draft.id, status: draft.status, error: error as Error });
    }
  }
  if (summary.remapped + summary.confirmed + summary.reopened > 0) logger.warn('recovered interrupted console drafts', { ...summary });
  return summary;
}
