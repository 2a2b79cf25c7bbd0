import { filesBucket, getObject, getObjectStream } from '../platform/blob';
import { streamByteSpans } from './byte-offsets';
import { loadLayout, loadLayoutIndex } from './layout-source';
import { StreamedOriginal } from './original-bytes';
import { inMemorySource, type ProcessedSource } from './processed-file';
import type { ResultRows } from './results';
import { keys, type UploadRecord } from './upload';
import { hasUtf8Bom } from './work-file';

/**
 * What finalize writes the processed file and the slices from: the original read from the store
 * as a stream, a pass at a time (original-bytes.ts), never held whole; only where each record's
 * bytes sit is kept (8 bytes a row), found in a first pass. An upload created before create
 * stored a layout has its original read whole and parsed again (layout-source.ts). `close` lets
 * go of the pass under way.
 */
export async function originalSource(upload: UploadRecord, results: ResultRows): Promise<{ source: ProcessedSource; close(): Promise<void> }> {
  const bucket = filesBucket();
  const key = keys.original(upload);
  const layout = await loadLayoutIndex(upload);
  const base = { phoneColumns: upload.phone_columns, identity: upload.identity_enabled, results };
  if (!layout) {
    const whole = await getObject(bucket, key);
    if (!whole) throw new Error(`upload ${upload.id}: original missing`);
    const { layout: parsed, skip } = await loadLayout(upload, whole);
    return { source: inMemorySource(whole, skip, parsed, base.phoneColumns, base.identity, results), close: () => Promise.resolve() };
  }
  const open = async (): Promise<AsyncIterable<Uint8Array>> => {
    const stream = await getObjectStream(bucket, key);
    if (!stream) throw new Error(`upload ${upload.id}: original missing`);
    return stream.body;
  };
  const original = new StreamedOriginal(open);
  const skip = hasUtf8Bom(await original.head(3)) ? 3 : 0;
  await original.close();
  const spans = await streamByteSpans(await open(), skip, layout);
  return { source: { original, spans, layout, ...base }, close: () => original.close() };
}
