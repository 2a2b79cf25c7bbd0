import { filesBucket, getObject } from '../../platform/blob';
import { planUpload } from '../plan-upload';
import { readCsv } from '../csv-text';
import { keys, type UploadRecord } from '../upload';
import { hasUtf8Bom, layoutOf, type UploadWork } from '../work-file';

/**
 * The upload's rows and record spans read again from its stored original, by the rules create
 * applied: an upload created before create stored its work file.
 */
export async function workFromOriginal(upload: UploadRecord): Promise<UploadWork> {
  const bytes = await getObject(filesBucket(), keys.original(upload));
  if (!bytes) throw new Error(`upload ${upload.id}: original missing`);
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  const mapping = { phoneColumns: upload.phone_columns, fullNameColumn: upload.name_columns?.full, firstNameColumn: upload.name_columns?.first, lastNameColumn: upload.name_columns?.last };
  const layout = layoutOf(parsed);
  layout.bom ||= hasUtf8Bom(bytes);
  return { rows: planUpload(header!.fields, rows.map((r) => r.fields), mapping, { minimum: 0 }).rows, layout, firstCells: rows.map((r) => r.fields[0] ?? '') };
}
