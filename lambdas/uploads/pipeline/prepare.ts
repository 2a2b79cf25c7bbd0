import { nowIso } from '../../platform/clock';
import { crashPoint } from '../../platform/crash-point';
import { filesBucket, getObjectStream, putObject } from '../../platform/blob';
import { jsonArrayBytes } from '../../platform/json-array-bytes';
import { keys, type UploadRecord } from '../upload';
import { getUpload, transitionUpload } from '../upload-repository';
import { storedRowsOf, type StoredRows } from '../work-file';
import { readWorkRowsStream } from '../work-rows-stream';
import { uploadChunkPlan } from '../chunk-plan';
import { processingBoundMs } from './processing-bound';
import { cellItemsOf, numberItems, serializeCellItems, type CellItems, type ChunkItem } from './cell-items';

/**
 * An upload still `processing` this long after it started is failed and refunded by recovery
 * (250,000 numbers take minutes; a real provider's rate limit can stretch that to about an hour).
 */


export type { ChunkItem } from './cell-items';

/**
 * Each row's numbers and name as create stored them, parsed as the work file arrives (never held
 * whole: work-rows-stream.ts), or as the original gives them again.
 */
async function loadRows(upload: UploadRecord): Promise<StoredRows> {
  const stored = await getObjectStream(filesBucket(), keys.work(upload));
  if (stored) return readWorkRowsStream(stored.body);
  // Its original planned again, with libphonenumber-js, loaded only then.
  return storedRowsOf((await (await import('./work-from-original')).workFromOriginal(upload)).rows, upload.phone_columns.length);
}

/** Which item each cell is (cell-items.ts), computed from the rows: for an upload prepared before prepare wrote that index (load-cell-items.ts). */
export async function cellItemsFromRows(upload: UploadRecord): Promise<CellItems> {
  return cellItemsOf(await loadRows(upload), upload.phone_columns.length, upload.identity_enabled);
}

/**
 * First step: `ready_for_processing → processing` (the workflow has started), then the distinct
 * numbers are written to S3 in chunks as they are met (one chunk is held at a time), then the
 * index of which item each cell is; only the chunk numbers (and how many to classify at once,
 * chunk-plan.ts) travel in the state (256 KB limit).
 */
export async function prepare(input: { upload_id: string }): Promise<{ chunks: number[]; concurrency: number }> {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.status === 'ready_for_processing') {
    const at = nowIso();
    await transitionUpload(upload.id, ['ready_for_processing'], 'processing', {}, at, new Date(Date.parse(at) + processingBoundMs()).toISOString());
  } else if (upload.status !== 'processing') {
    throw new Error(`upload ${upload.id} is ${upload.status}; nothing to process`);
  }
  crashPoint('pipeline.after-start');
  const bucket = filesBucket();
  const { chunkSize, concurrency } = uploadChunkPlan(upload);
  const chunks: number[] = [];
  const items = numberItems(await loadRows(upload), upload.phone_columns.length, upload.identity_enabled);
  let chunk: ChunkItem[] = [];
  for (;;) {
    const next = items.next();
    if (!next.done) chunk.push(next.value);
    if (chunk.length === chunkSize || (next.done && chunk.length)) {
      chunks.push(chunks.length);
      await putObject(bucket, keys.chunk(upload, chunks.length - 1), jsonArrayBytes(chunk), 'application/json');
      chunk = [];
    }
    if (next.done) {
      await putObject(bucket, keys.cellItems(upload), serializeCellItems(next.value), 'application/octet-stream');
      return { chunks, concurrency };
    }
  }
}
