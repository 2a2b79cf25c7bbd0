import type { UploadRecord, UploadStatus } from '../uploads/upload';
import type { WebDraft } from './web-upload-repository';

// The console's uploads list, searched by file name and filtered by status on the server: a filter
// over the organization's uploads list (the API's pages and cursors), bounded so one request never
// reads more than SEARCH_SCAN_LIMIT uploads; the next cursor resumes where it stopped.

export interface UploadFilter {
  /** Part of the file name, any case. */
  q?: string;
  status?: UploadStatus;
}

export const LIST_PAGE = 50;
/** Uploads one filtered request reads at most before it answers with what it found and a cursor. */
export const SEARCH_SCAN_LIMIT = 1000;

const active = (f: UploadFilter) => Boolean(f.q?.trim()) || Boolean(f.status);

export function matchesUpload(u: Pick<UploadRecord, 'original_filename' | 'status'>, f: UploadFilter): boolean {
  const q = f.q?.trim().toLowerCase();
  if (q && !u.original_filename.toLowerCase().includes(q)) return false;
  return !f.status || u.status === f.status;
}

/** Drafts carry their own steps: a status filter for uploads shows none of them. */
export function matchesDraft(d: Pick<WebDraft, 'filename'>, f: UploadFilter): boolean {
  const q = f.q?.trim().toLowerCase();
  return !f.status && (!q || d.filename.toLowerCase().includes(q));
}

type Lister = (orgId: string, limit: number, cursor?: string) => Promise<{ data: UploadRecord[]; nextCursor: string | null }>;

/**
 * A page of the organization's uploads, newest first. Unfiltered: the API's own page. Filtered:
 * pages of LIST_PAGE are read until LIST_PAGE matches are found (so up to 2 × LIST_PAGE − 1 come
 * back: a cursor resumes only at a page's end), the list ends, or SEARCH_SCAN_LIMIT uploads were
 * read; `scanned` says how many, so the page can say "searched the newest N, more below".
 */
export async function searchUploads(list: Lister, orgId: string, filter: UploadFilter, cursor?: string): Promise<{ data: UploadRecord[]; nextCursor: string | null; scanned: number }> {
  if (!active(filter)) {
    const page = await list(orgId, LIST_PAGE, cursor);
    return { ...page, scanned: page.data.length };
  }
  const found: UploadRecord[] = [];
  let next: string | null = cursor ?? null;
  let scanned = 0;
  do {
    const page = await list(orgId, LIST_PAGE, next ?? undefined);
    scanned += page.data.length;
    found.push(...page.data.filter((u) => matchesUpload(u, filter)));
    next = page.nextCursor;
  } while (next && found.length < LIST_PAGE && scanned < SEARCH_SCAN_LIMIT);
  return { data: found, nextCursor: next, scanned };
}
