import { nowIso } from '../../platform/clock';
import { crashPoint } from '../../platform/crash-point';
import { filesBucket, getObject, putObject } from '../../platform/blob';
import type { AnswerIntent, IdentityBand } from '../../classification';
import { handlePoolUploadFinished, type PoolRowResult } from '../../contacts/pool-results';
import { parseCsv } from '../csv';
import { writeProcessedBytes } from '../processed-file';
import { writeCommonSlices } from '../downloads';
import { loadLayout } from '../layout-source';
import { ByteSink } from '../byte-sink';
import { readFirstCells } from '../work-file';
import { cellResult, parseResults, ResultTable, serializeResults, summarize, type ItemAnswer, type ResultRows } from '../results';
import { keys, type UploadRecord } from '../upload';
import { getUpload, settleUpload, transitionUpload, uploadItemKey } from '../upload-repository';
import { flushOutbox, outboxFields } from '../../events/outbox';
import { completedEntries } from './announce';
import type { ChunkAnswer } from './classify-chunk';
import { loadCellItems } from './prepare';
import { INVALID, type CellItems } from './cell-items';

/**
 * Last step: join the chunk answers to the rows, summarize, write the processed file and the row
 * results (for slices), mark the upload completed and announce it. Safe to run again.
 */
export async function finalize(input: { upload_id: string; chunks?: number[] }): Promise<{ status: string }> {
  const current = await getUpload(input.upload_id);
  if (!current) throw new Error(`upload ${input.upload_id} not found`);
  const bucket = filesBucket();
  let upload: UploadRecord = current;
  let results: ResultRows;
  if (current.status === 'completed') {
    // A retry, or recovery finishing what a crash interrupted: publish and settle what is left.
    const stored = await getObject(bucket, keys.results(current));
    results = stored ? parseResults(stored) : [];
    await flushOutbox(uploadItemKey(current.id));
  } else if (current.status === 'processing' || current.status === 'ready_for_processing') {
    const index = await loadCellItems(current);
    const { answers, simulated } = await loadAnswers(current, input.chunks ?? [], index.named.length);
    const table = joinResults(index, answers, current.identity_enabled);
    results = table;
    await putObject(bucket, keys.results(current), serializeResults(table), 'application/json');
    const original = await getObject(bucket, keys.original(current));
    if (!original) throw new Error(`upload ${current.id}: original missing`);
    const { layout, skip } = await loadLayout(current, original);
    // One buffer for the processed file and the slices, written one after the other.
    const sink = new ByteSink(original.length + table.length * 24);
    await putObject(bucket, keys.processed(current), writeProcessedBytes(original, skip, layout, current.phone_columns, current.identity_enabled, results, {}, sink), 'text/csv');
    // The slices most asked for are written now, so their first download only signs a link.
    await writeCommonSlices(current, original, skip, layout, results, sink);
    crashPoint('pipeline.before-complete');
    const at = nowIso();
    const fields = { result_summary: summarize(results, current.identity_enabled, simulated), processed_available: true };
    const key = uploadItemKey(current.id);
    const entries = await completedEntries({ ...current, ...fields, status: 'completed', updated_at: at });
    // Pooled contacts still have to be settled: the upload stays watched until they are.
    const staleAt = current.source === 'api_pool' ? new Date(Date.parse(at) + SETTLE_BOUND_MS).toISOString() : null;
    const done = await transitionUpload(current.id, ['processing', 'ready_for_processing'], 'completed', { ...fields, ...outboxFields(key, entries, at) }, at, staleAt);
    if (!done) return { status: (await getUpload(current.id))?.status ?? 'unknown' }; // failed by recovery meanwhile
    upload = done;
    crashPoint('pipeline.after-complete');
    if (entries.length) await flushOutbox(key);
  } else {
    return { status: current.status };
  }
  if (upload.source === 'api_pool') {
    await finishPool(upload, results);
    await settleUpload(upload.id);
  }
  return { status: upload.status };
}

/** Time allowed between an upload's end and the settling of what it still owes (refund, pooled contacts). */
export const SETTLE_BOUND_MS = 5 * 60_000;

/** The pooled contacts' rows: contact_id is the pool file's first column. */
export async function poolContactIds(upload: UploadRecord): Promise<string[]> {
  const stored = await getObject(filesBucket(), keys.work(upload));
  if (stored) {
    const ids = readFirstCells(stored);
    if (ids) return ids;
  }
  const original = await getObject(filesBucket(), keys.original(upload));
  if (!original) return [];
  const [, ...rows] = parseCsv(original.toString('utf8')).records;
  return rows.map((r) => r.fields[0] ?? '');
}

async function finishPool(upload: UploadRecord, results: ResultRows): Promise<void> {
  const ids = await poolContactIds(upload);
  const rows: PoolRowResult[] = ids.map((contact_id, i) => {
    const cell = results.at(i)?.cells[0];
    return cell ? { contact_id, answerIntent: cell.answerIntent, identity: cell.identity, status: cell.status } : { contact_id, missing: true };
  });
  await handlePoolUploadFinished(upload, rows, ids);
}

export const handler = finalize;

/**
 * The chunks' answers by item number: chunk after chunk in the order prepare wrote them, each
 * answer a code into a small table of distinct answers (0: none).
 */
async function loadAnswers(upload: UploadRecord, chunks: number[], items: number): Promise<{ answers: { codes: Uint8Array; table: ItemAnswer[] }; simulated: boolean }> {
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
      codes[item++] = code;
      simulated ||= a.simulated;
    }
  }
  if (chunks.length && item !== items) throw new Error(`upload ${upload.id}: the chunks hold ${item} answers for ${items} items`);
  return { answers: { codes, table }, simulated };
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
