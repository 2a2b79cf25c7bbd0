import { uploadChunkPlan } from '../uploads/chunk-plan';
import { filesBucket, getObject, namesUnder, objectExists } from '../platform/blob';
import { keys, type UploadRecord } from '../uploads/upload';

// How far processing is, for the console's results page. The upload record keeps no progress, so
// it is derived from what exists: prepare writes the distinct items to classify in chunks of the
// upload's chunk plan (uploads/chunk-plan.ts: UPLOAD_CHUNK_SIZE, or smaller with a paid provider)
// (uploads/{org}/{id}/chunks/{n}.json), then the index of which item each cell is (cell-items.bin:
// prepare is done), and each classified chunk leaves its result beside it ({n}.result.json).
//
// A chunk holds distinct items, not rows (pipeline/cell-items.ts: numberItems): with identity off an
// item is a distinct number, so rows repeating a number make fewer chunks; with identity on it is a
// distinct number-and-name pair, so a number met with several names is classified once per name
// and the items can outnumber the distinct numbers (up to one per row). The count, the percentage
// and the time left are all of these items, in `unit`.

export interface ProcessingProgress {
  /** Chunks prepare wrote, and how many of them have a result. */
  chunks_total: number;
  chunks_done: number;
  /** What a chunk holds: distinct numbers (identity off), or distinct number-and-name pairs (identity on). */
  unit: 'numbers' | 'number_name_pairs';
  /** Items (of `unit`) classified so far (the items of the chunks with a result), and of how many. */
  numbers_done: number;
  numbers_total: number;
  /** numbers_done of numbers_total, rounded down. */
  percent: number;
  /** Seconds left at the pace so far (since the upload entered processing); null before the first chunk. */
  eta_seconds: number | null;
  /** Rows of the file (the upload's total_rows), shown before the result summary has them. */
  rows_total: number;
}

export interface ChunkFlags {
  /** Chunks prepare wrote (all of them: prepare is done). */
  written: number;
  /** Which of them have a result. */
  done: readonly number[];
  /** Items in each chunk but the last, and in the last. */
  chunkSize: number;
  lastChunkItems: number;
}

/** The progress from chunk flags once prepare is done: a plain function of what was found. */
export function progressOf(flags: ChunkFlags, upload: { identity_enabled: boolean; total_rows: number }, elapsedMs: number): ProcessingProgress {
  const { written, chunkSize, lastChunkItems } = flags;
  const done = [...new Set(flags.done)].filter((n) => n >= 0 && n < written);
  const total = written === 0 ? 0 : (written - 1) * chunkSize + lastChunkItems;
  const itemsDone = done.reduce((sum, n) => sum + (n === written - 1 ? lastChunkItems : chunkSize), 0);
  const fraction = total === 0 ? 1 : itemsDone / total;
  return {
    chunks_total: written,
    chunks_done: done.length,
    unit: upload.identity_enabled ? 'number_name_pairs' : 'numbers',
    numbers_done: itemsDone,
    numbers_total: total,
    percent: Math.floor(fraction * 100),
    eta_seconds: fraction > 0 && fraction < 1 ? Math.max(1, Math.round(((elapsedMs / fraction) * (1 - fraction)) / 1000)) : fraction >= 1 ? 0 : null,
    rows_total: upload.total_rows,
  };
}

/**
 * Which chunks exist and which have a result, from the names under the chunks' prefix (one list
 * request per 1,000 names; their checkpoint parts sit a level deeper and are not listed).
 * Prepare writes chunks 0 … n−1 before it writes the cell index, so once that exists they all do.
 */
export function chunksOf(names: readonly string[]): { written: number; done: number[] } {
  const chunks = new Set<number>();
  const results = new Set<number>();
  for (const name of names) {
    const match = /^(0|[1-9]\d*)\.(json|result\.json)$/.exec(name);
    if (match) (match[2] === 'json' ? chunks : results).add(Number(match[1]));
  }
  let written = 0;
  while (chunks.has(written)) written++;
  return { written, done: [...results].filter((n) => n < written).sort((a, b) => a - b) };
}

/**
 * Null until prepare is done (no chunk is classified before: the workflow's Map starts after it),
 * and for an upload not processing.
 */
export async function processingProgress(upload: UploadRecord, nowMs: number): Promise<ProcessingProgress | null> {
  if (upload.status !== 'processing') return null;
  const bucket = filesBucket();
  if (!(await objectExists(bucket, keys.cellItems(upload)))) return null;
  // Results come in any order (chunks run in parallel): every one is listed, however many chunks.
  const { written, done } = chunksOf(await namesUnder(bucket, keys.chunks(upload)));
  // The last chunk is the only partial one: how many items it holds is read from it.
  const last = written > 0 ? await getObject(bucket, keys.chunk(upload, written - 1)) : null;
  const lastChunkItems = last ? (JSON.parse(last.toString('utf8')) as unknown[]).length : 0;
  return progressOf({ written, done, chunkSize: uploadChunkPlan(upload).chunkSize, lastChunkItems }, upload, nowMs - Date.parse(upload.updated_at));
}
