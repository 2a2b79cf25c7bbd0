import { nowIso } from '../../platform/clock';
import { config } from '../../platform/config';
import { logger } from '../../platform/logger';
import { crashPoint } from '../../platform/crash-point';
import { filesBucket, getObject, putObject } from '../../platform/blob';
import type { AnswerIntent, IdentityBand } from '../../classification';
import { writeProcessedAndSlices } from '../downloads';
import { originalSource } from '../original-source';
import { cellResult, ResultTable, serializeResults, summarize, type ItemAnswer } from '../results';
import { keys, type UploadRecord } from '../upload';
import { getUpload, transitionUpload, uploadItemKey } from '../upload-repository';
import { flushOutbox, outboxFields } from '../../webhooks/outbox';
import { completedEntries } from './announce';
import type { ChunkAnswer } from './classify-chunk';
import { loadCellItems } from './load-cell-items';
import { SETTLE_BOUND_MS } from './settle-bound';
import { INVALID, type CellItems } from './cell-items';
import type { DeliveryPorts } from '../../webhooks/delivery-queue-port';
import { countLookup, noLookups, type LookupCounts } from '../../classification/lookup-usage';

/**
 * Last step: join the chunk answers to the rows, summarize, write the processed file and the row
 * results (for slices), mark the upload completed and announce it. Safe to run again.
 */
export async function finalize(ports: DeliveryPorts, input: { upload_id: string; chunks?: number[] }): Promise<{ status: string }> {
  const current = await getUpload(input.upload_id);
  if (!current) throw new Error(`upload ${input.upload_id} not found`);
  const bucket = filesBucket();
  let upload: UploadRecord = current;
  if (current.status === 'completed') {
    // A retry, or recovery finishing what a crash interrupted: publish what is left.
    await flushOutbox(ports, uploadItemKey(current.id));
  } else if (current.status === 'processing' || current.status === 'ready_for_processing') {
    const index = await loadCellItems(current);
    const { answers, simulated, lookupFailures, failedItems, lookups } = await loadAnswers(current, input.chunks ?? [], index.named.length);
    if (current.source === 'api_pool') await recordPoolLookupFailures(current, lookupFailures, failedRows(index, failedItems));
    else failIfTooManyLookupsFailed(current.id, lookupFailures, index.named.length);
    const table = joinResults(index, answers, current.identity_enabled);
    const results = table;
    await putObject(bucket, keys.results(current), serializeResults(table), 'application/json');
    // The original is read as a stream, never held whole: the processed file and the slices are
    // written from it side by side, each to its object a part at a time (downloads.ts). The slices
    // most asked for are written now, so their first download only signs a link; and the slice
    // base and its index, from which any other slice is read on its first download.
    const { source, close } = await originalSource(current, results);
    try {
      await writeProcessedAndSlices(current, source);
    } finally {
      await close();
    }
    crashPoint('pipeline.before-complete');
    const at = nowIso();
    // The lookups counted here are internal (admin `usage`, docs/cost.md): the Upload object is the spec's.
    const fields = { result_summary: summarize(results, current.identity_enabled, simulated), processed_available: true, lookups_paid: lookups.paid, lookups_cached: lookups.cached, lookups_failed: lookups.failed };
    const key = uploadItemKey(current.id);
    const entries = await completedEntries({ ...current, ...fields, status: 'completed', updated_at: at });
    // Pooled contacts still have to be settled (the workflow's NotifyPool step, or recovery): the
    // upload stays watched until they are.
    const staleAt = current.source === 'api_pool' ? new Date(Date.parse(at) + SETTLE_BOUND_MS).toISOString() : null;
    const done = await transitionUpload(current.id, ['processing', 'ready_for_processing'], 'completed', { ...fields, ...outboxFields(key, entries, at) }, at, staleAt);
    if (!done) return { status: (await getUpload(current.id))?.status ?? 'unknown' }; // failed by recovery meanwhile
    upload = done;
    crashPoint('pipeline.after-complete');
    if (entries.length) await flushOutbox(ports, key);
  } else {
    return { status: current.status };
  }
  return { status: upload.status };
}

/**
 * Numbers whose provider lookup failed after its retries are Unknown; only when more than
 * PROVIDER_FAILURE_MAX_SHARE of the upload failed is the whole upload failed (and refunded by the
 * workflow's catch), since its results would mostly be noise.
 */
function failIfTooManyLookupsFailed(uploadId: string, failures: ChunkAnswer[], total: number): void {
  if (!failures.length) return;
  const reasons = [...new Set(failures.map((f) => f.lookupError))].slice(0, 5);
  logger.warn('provider lookups failed; those numbers are Unknown', { upload_id: uploadId, failed: failures.length, total, reasons });
  if (failures.length / Math.max(1, total) > config().PROVIDER_FAILURE_MAX_SHARE) {
    const error = new Error(`${failures.length} of ${total} provider lookups failed (${reasons.join('; ')})`);
    error.name = 'ProviderFailureShareExceeded';
    throw error;
  }
}

/**
 * A contacts' pool is many purchases, not one file: each contact whose number the provider could not
 * look up fails and is refunded on its own when the pool is settled (pool-settle.ts), and the others
 * complete, however many failed beside them (the share that fails a whole upload does not apply).
 * Written before the upload is completed, the same on every run of this step. The rows, not the
 * numbers: two contacts of one number with other names are two lookups, and one can fail alone.
 */
async function recordPoolLookupFailures(upload: UploadRecord, failures: ChunkAnswer[], rows: number[]): Promise<void> {
  if (!failures.length) return;
  logger.warn('provider lookups failed; those contacts fail and are refunded', { upload_id: upload.id, failed: rows.length, reasons: [...new Set(failures.map((f) => f.lookupError))].slice(0, 5) });
  await putObject(filesBucket(), keys.lookupFailures(upload), JSON.stringify({ rows }), 'application/json');
  crashPoint('pipeline.after-lookup-failures');
}

/** The rows (0-based, header not counted) with a cell whose item's lookup failed, in order. */
function failedRows(index: CellItems, failedItems: ReadonlySet<number>): number[] {
  const rows: number[] = [];
  if (!failedItems.size) return rows;
  for (let i = 0; i < index.cells.length; i++) {
    const row = Math.floor(i / index.columns);
    if (failedItems.has(index.cells[i]!) && rows.at(-1) !== row) rows.push(row);
  }
  return rows;
}

/**
 * The chunks' answers by item number: chunk after chunk in the order prepare wrote them, each
 * answer a code into a small table of distinct answers (0: none).
 */
async function loadAnswers(upload: UploadRecord, chunks: number[], items: number): Promise<{ answers: { codes: Uint8Array; table: ItemAnswer[] }; simulated: boolean; lookupFailures: ChunkAnswer[]; failedItems: Set<number>; lookups: LookupCounts }> {
  const lookupFailures: ChunkAnswer[] = [];
  const failedItems = new Set<number>();
  const lookups = noLookups();
  const codes = new Uint8Array(items);
  const table: ItemAnswer[] = [];
  const byKey = new Map<string, number>();
  let simulated = false;
  let item = 0;
  for (const n of chunks) {
    const bytes = await getObject(filesBucket(), keys.chunkResult(upload, n));
    if (!bytes) throw new Error(`upload ${upload.id}: answers of chunk ${n} missing`);
    for (const a of JSON.parse(bytes.toString('utf8')) as ChunkAnswer[]) {
      const k = `${a.answerIntent}|${a.identity ?? ''}`;
      let code = byKey.get(k);
      if (code === undefined) {
        table.push({ answerIntent: a.answerIntent as AnswerIntent, identity: a.identity as IdentityBand | null });
        code = table.length;
        byKey.set(k, code);
      }
      if (item >= items) throw new Error(`upload ${upload.id}: the chunks hold more answers than the upload has items`);
      if (a.lookupError) {
        lookupFailures.push(a);
        failedItems.add(item);
      }
      codes[item++] = code;
      simulated ||= a.simulated;
      countLookup(lookups, a);
    }
  }
  if (chunks.length && item !== items) throw new Error(`upload ${upload.id}: the chunks hold ${item} answers for ${items} items`);
  return { answers: { codes, table }, simulated, lookupFailures, failedItems, lookups };
}

/** Each cell's result from its item's answer (results.ts rules), one byte per cell. */
function joinResults(index: CellItems, answers: { codes: Uint8Array; table: ItemAnswer[] }, identity: boolean): ResultTable {
  const results = new ResultTable(index.columns, identity, new Uint8Array(index.cells.length));
  for (let i = 0; i < index.cells.length; i++) {
    const item = index.cells[i]!;
    if (item < 0) {
      results.cells[i] = results.codeOf(cellResult(item === INVALID ? null : '', false, undefined, identity));
      continue;
    }
    const code = answers.codes[item]!;
    // Any non-empty string stands for the number here: cellResult only tells '' and null apart.
    results.cells[i] = results.codeOf(cellResult('+', index.named[item] === 1, code ? answers.table[code - 1] : undefined, identity));
  }
  return results;
}
