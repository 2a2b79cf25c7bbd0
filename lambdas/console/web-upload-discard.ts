import { Conflict } from '../platform/domain-errors';
import type { ConsolePrincipal } from './principal';
import { ownDraft } from './web-drafts';
import { deleteDraft } from './web-upload-repository';

/**
 * Discards a draft not yet confirmed (pending_mapping, validation_failed, awaiting_confirmation):
 * nothing was charged, so nothing is refunded. Refused (409) while validating, confirming, or once
 * it became an upload. Its stored files (web-drafts/{org}/{id}*) are left, unreachable.
 */
export async function discardWebUpload(principal: ConsolePrincipal, id: string): Promise<{ id: string; discarded: true }> {
  const draft = await ownDraft(principal, id);
  if (!(await deleteDraft(draft.id, ['pending_mapping', 'validation_failed', 'awaiting_confirmation']))) {
    throw new Conflict(`This upload is ${draft.status === 'pending_mapping' || draft.status === 'validation_failed' || draft.status === 'awaiting_confirmation' ? 'being validated or confirmed' : draft.status}; only a draft not yet confirmed can be discarded`);
  }
  return { id: draft.id, discarded: true };
}
