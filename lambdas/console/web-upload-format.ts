import { nowIso } from '../platform/clock';
import { Conflict } from '../platform/domain-errors';
import { filesBucket, getObject, putObject } from '../platform/blob';
import type { ConsolePrincipal } from './principal';
import type { ImportChoice } from './import-format';
import { readImport } from './import-file';
import { draftLayoutOf, originalKey, sourceKey } from './web-upload';
import { ownDraft } from './web-drafts';
import { transitionDraft, type WebDraft } from './web-upload-repository';

/**
 * Reads a draft's file again with the delimiter, encoding or header choice the person made on the
 * page (each one not given is detected again): the draft goes back to pending_mapping with the new columns,
 * preview and row count; mapping and validation are cleared, as the columns may have changed.
 * Nothing is charged before confirmation, so nothing is refunded.
 */
export async function rereadWebUpload(principal: ConsolePrincipal, id: string, choice: ImportChoice): Promise<WebDraft> {
  const draft = await ownDraft(principal, id);
  const open = ['pending_mapping', 'validation_failed', 'awaiting_confirmation'] as const;
  if (!(open as readonly string[]).includes(draft.status)) throw new Conflict(`This upload is ${draft.status}; its file can no longer be read another way`);
  const bucket = filesBucket();
  // The bytes as sent: kept beside the converted file when the import converted them, else the file itself.
  let sent = await getObject(bucket, sourceKey(draft));
  if (!sent) {
    sent = await getObject(bucket, originalKey(draft));
    if (!sent) throw new Error(`web upload ${draft.id}: original missing`);
    await putObject(bucket, sourceKey(draft), sent, 'application/octet-stream');
  }
  const { csv, format } = await readImport(sent, choice);
  const layout = draftLayoutOf(csv);
  const moved = await transitionDraft(draft.id, [...open], 'pending_mapping', { ...layout, file_size_bytes: csv.length, sent_size_bytes: format.converted ? sent.length : null, import: format, mapping: null, validation: null, failure: null, invalid_cells: [], validated_rows: 0 }, nowIso());
  if (!moved) throw new Conflict('This upload changed meanwhile (validated or confirmed in another tab); reload it');
  await putObject(bucket, originalKey(draft), csv, 'text/csv');
  return moved;
}

