import { filesBucket, getObject } from '../platform/blob';
import { readCsv } from './csv-text';
import { keys, type UploadRecord } from './upload';
import { hasUtf8Bom, isWorkV1, layoutOf, storedLayoutOf } from './work-file';
import { layoutIndexOf, readLayoutIndex, type LayoutIndex } from './layout-index';

/**
 * The same layout as finalize and the downloads read it (layout-index.ts): offsets and a byte a
 * row, the formula rows' fields left in the stored bytes, which are let go once read.
 */
export async function loadLayoutIndex(upload: UploadRecord): Promise<LayoutIndex | null> {
  const stored = await getObject(filesBucket(), keys.layout(upload));
  if (stored) return readLayoutIndex(stored);
  const work = await getObject(filesBucket(), keys.work(upload));
  // A version 2 work file holds no layout: it is stored on its own.
  return work && isWorkV1(work) ? readLayoutIndex(work) : null;
}

/**
 * Where each record of the original sits, and how many bytes of the original precede the text its
 * offsets count in (a BOM the decoder dropped). An upload created before create stored a layout
 * has its original parsed again.
 */
export async function loadLayout(upload: UploadRecord, original: Buffer): Promise<{ layout: LayoutIndex; skip: number }> {
  const skip = hasUtf8Bom(original) ? 3 : 0;
  const stored = await loadLayoutIndex(upload);
  if (stored) return { layout: stored, skip };
  const layout = layoutOf(readCsv(original));
  layout.bom ||= skip > 0;
  return { layout: layoutIndexOf(storedLayoutOf(layout)), skip };
}
