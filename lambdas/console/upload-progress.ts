import { uploadChunkPlan } from '../uploads/chunk-plan';
import { filesBucket, objectExists } from '../platform/blob';
import { keys, type UploadRecord } from '../uploads/upload';

// How far processing is, for the console's results page. The upload record keeps no progress, so
// it is derived from what exists: prepare writes the distinct numbers in chunks of the upload's
// chunk plan (uploads/chunk-plan.ts: UPLOAD_CHUNK_SIZE, or smaller with a paid provider) (uploads/{org}/{id}/chunks/{n}.json) and each classified chunk leaves its
// result beside it ({n}.result.json). Numbers done are counted in whole chunks.

export interface ProcessingProgress {
  /** Chunks prepare has written so far, and how many of them have a result. */
  chunks_total: number;
  chunks_done: number;
  /** Distinct numbers classified (whole chunks) of the upload's valid numbers. */
  numbers_done: number;
  numbers_total: number;
  percent: number;
  /** Seconds left at the pace so far (since the upload entered processing); null before the first chunk. */
  eta_seconds: number | null;
}

/** Chunks probed at a time; at most MAX_CHUNKS (250,000 numbers in chunks of 5,000 are 50). */
const PROBE_BATCH = 10;
const MAX_CHUNKS = 200;

/** The progress from chunk flags: a plain function of what was found. */
export function progressOf(written: number, done: number, chunkSize: number, numbersTotal: number, elapsedMs: number): ProcessingProgress {
  const expected = Math.max(written, Math.ceil(numbersTotal / chunkSize), 1);
  const fraction = Math.min(1, done / expected);
  return {
    chunks_total: expected,
    chunks_done: done,
    numbers_done: Math.min(numbersTotal, done * chunkSize),
    numbers_total: numbersTotal,
    percent: Math.floor(fraction * 100),
    eta_seconds: fraction > 0 && fraction < 1 ? Math.max(1, Math.round(((elapsedMs / fraction) * (1 - fraction)) / 1000)) : fraction >= 1 ? 0 : null,
  };
}

async function count(exists: (n: number) => Promise<boolean>, limit: number): Promise<number> {
  let n = 0;
  while (n < limit) {
    const batch = Array.from({ length: Math.min(PROBE_BATCH, limit - n) }, (_, i) => n + i);
    const found = await Promise.all(batch.map(exists));
    const missing = found.indexOf(false);
    if (missing >= 0) return n + missing;
    n += batch.length;
  }
  return n;
}

export async function processingProgress(upload: UploadRecord, nowMs: number): Promise<ProcessingProgress | null> {
  if (upload.status !== 'processing') return null;
  const bucket = filesBucket();
  const written = await count((n) => objectExists(bucket, keys.chunk(upload, n)), MAX_CHUNKS);
  // Results come in any order (chunks run in parallel): each written chunk is asked.
  const done = (await Promise.all(Array.from({ length: written }, (_, n) => objectExists(bucket, keys.chunkResult(upload, n))))).filter(Boolean).length;
  return progressOf(written, done, uploadChunkPlan(upload).chunkSize, upload.valid_number_count ?? 0, nowMs - Date.parse(upload.updated_at));
}
