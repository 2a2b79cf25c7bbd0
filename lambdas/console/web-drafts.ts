import { NotFound } from '../platform/domain-errors';
import { getUpload } from '../uploads/upload-repository';
import type { ConsolePrincipal } from './principal';
import { getDraft, listOpenDrafts, type WebDraft } from './web-upload-repository';

// Reading an organization's drafts (the in-app upload flow's, ./web-upload.ts), apart from the
// flow itself: the uploads list and an upload's page read drafts on every visit, and need none of
// the CSV reading, validation and pricing the flow's steps carry.

export async function ownDraft(principal: ConsolePrincipal, id: string): Promise<WebDraft> {
  const draft = await getDraft(id);
  if (!draft || draft.organization_id !== principal.organizationId) throw new NotFound('Upload not found');
  return draft;
}

/**
 * Drafts not yet confirmed, without any that already became its upload (a confirm interrupted
 * after creating it, before marking the draft; recovery marks it later): the uploads list never
 * shows a draft beside the upload it became.
 */
export async function openDrafts(principal: ConsolePrincipal): Promise<WebDraft[]> {
  const drafts = await listOpenDrafts(principal.organizationId);
  const became = await Promise.all(drafts.map(async (d) => d.status !== 'confirming' && d.status !== 'awaiting_confirmation' ? false : becameUpload(d.id)));
  return drafts.filter((_, i) => !became[i]);
}

/** Whether the upload a draft would become (same id) exists and is visible: it was charged. */
export async function becameUpload(id: string): Promise<boolean> {
  const upload = await getUpload(id);
  return upload !== null && upload.status !== 'charging';
}
