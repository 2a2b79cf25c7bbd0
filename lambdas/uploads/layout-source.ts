import { filesBucket, getObject } from '../platform/blob';
import { readCsv } from './create-upload';
import { keys, type UploadRecord } from './upload';
import { hasUtf8Bom, layoutOf, readLayout, readWorkLayout, storedLayoutOf, type StoredLayout } from './work-file';

/** The layout create stored (its own object; inside the work file for uploads created before). */
export async function loadStoredLayout(upload: UploadRecord): Promise<StoredLayout | null> {
  const stored = await getObject(filesBucket(), keys.layout(upload));
  if (stored) return readLayout(stored);
  const work = await getObject(filesBucket(), keys.work(upload));
  return work ? readWorkLayout(work) : null;
}

/**
 * Where each record of the original sits, and how many bytes of the original precede the text its
 * offsets count in (a BOM the decoder dropped). An upload created before create stored a layout
 * has its original parsed again.
 */
export async function loadLayout(upload: UploadRecord, original: Buffer): Promise<{ layout: StoredLayout; skip: number }> {
  const skip = hasUtf8Bom(original) ? 3 : 0;
  const stored = await loadStoredLayout(upload);
  if (stored) return { layout: stored, skip };
  const layout = layoutOf(readCsv(original));
  layout.bom ||= skip > 0;
  return { layout: storedLayoutOf(layout), skip };
}
