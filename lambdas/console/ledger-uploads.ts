import { getItems } from '../platform/table';
import { uploadItemKey } from '../uploads/upload-repository';
import type { LedgerLine } from './directory';

// The credits page names the upload a charge or a refund was for (its file, linked to its page):
// a ledger entry keeps only the upload's id, in its change id.

/** The upload a change concerns: its charge (`upload:<id>`) or its refund (`refund:upload:<id>`). */
export const uploadOfChange = (changeId: string): string | null => /^(?:refund:)?upload:([0-9a-f-]{36})$/.exec(changeId)?.[1] ?? null;

export type LedgerLineWithUpload = LedgerLine & { upload: { id: string; filename: string } | null };

/** The lines, each upload change with its upload's id and file name (one batch read for up to 100 uploads; another organization's upload is never named). */
export async function withUploadNames(orgId: string, lines: readonly LedgerLine[]): Promise<LedgerLineWithUpload[]> {
  const ids = [...new Set(lines.map((l) => uploadOfChange(l.change_id)).filter((id): id is string => id !== null))];
  const names = new Map<string, string>();
  for (let i = 0; i < ids.length; i += 100) {
    const found = await getItems(ids.slice(i, i + 100).map(uploadItemKey));
    for (const item of found.values()) {
      if (item.organization_id === orgId && typeof item.original_filename === 'string') names.set(String(item.id), item.original_filename);
    }
  }
  return lines.map((line) => {
    const id = uploadOfChange(line.change_id);
    const filename = id === null ? undefined : names.get(id);
    return { ...line, upload: id !== null && filename !== undefined ? { id, filename } : null };
  });
}
