import { nowIso } from '../../platform/clock';
import { filesBucket, getObject, putObject } from '../../platform/blob';
import type { AnswerIntent, IdentityBand } from '../../classification';
import { handlePoolUploadFinished, type PoolRowResult } from '../../contacts/pool-results';
import { parseCsv } from '../csv';
import { buildProcessedCsv } from '../processed-file';
import { rowResults, summarize, type RowResult } from '../results';
import { keys, type UploadRecord } from '../upload';
import { getUpload, transitionUpload } from '../upload-repository';
import { announceCompleted } from './announce';
import type { ChunkAnswer } from './classify-chunk';
import { loadWork } from './prepare';

/**
 * Last step: join the chunk answers to the rows, summarize, write the processed file and the row
 * results (for slices), mark the upload completed and announce it. Safe to run again.
 */
export async function finalize(input: { upload_id: string; chunks?: number[] }): Promise<{ status: string }> {
  const current = await getUpload(input.upload_id);
  if (!current) throw new Error(`upload ${input.upload_id} not found`);
  const bucket = filesBucket();
  let upload: UploadRecord = current;
  let results: RowResult[];
  if (current.status === 'completed') {
    const stored = await getObject(bucket, keys.results(current));
    results = stored ? (JSON.parse(stored.toString('utf8')) as { rows: RowResult[] }).rows : [];
  } else {
    const answers = new Map<string, { answerIntent: AnswerIntent; identity: IdentityBand | null }>();
    let simulated = false;
    for (const n of input.chunks ?? []) {
      const bytes = await getObject(bucket, keys.chunkResult(current, n));
      if (!bytes) throw new Error(`upload ${current.id}: answers of chunk ${n} missing`);
      for (const a of JSON.parse(bytes.toString('utf8')) as ChunkAnswer[]) {
        answers.set(a.key, { answerIntent: a.answerIntent as AnswerIntent, identity: a.identity as IdentityBand | null });
        simulated ||= a.simulated;
      }
    }
    const rows = await loadWork(current);
    results = rowResults(rows, current.identity_enabled, (key) => answers.get(key));
    const original = await getObject(bucket, keys.original(current));
    if (!original) throw new Error(`upload ${current.id}: original missing`);
    await putObject(bucket, keys.results(current), JSON.stringify({ rows: results }), 'application/json');
    await putObject(bucket, keys.processed(current), buildProcessedCsv(original.toString('utf8'), current.phone_columns, current.identity_enabled, results), 'text/csv');
    upload =
      (await transitionUpload(current.id, ['processing', 'ready_for_processing'], 'completed', { result_summary: summarize(results, current.identity_enabled, simulated), processed_available: true }, nowIso())) ??
      (await getUpload(current.id))!;
  }
  await announceCompleted(upload);
  if (upload.source === 'api_pool') await finishPool(upload, results);
  return { status: upload.status };
}

/** The pooled contacts' rows: contact_id is the pool file's first column. */
export async function poolContactIds(upload: UploadRecord): Promise<string[]> {
  const original = await getObject(filesBucket(), keys.original(upload));
  if (!original) return [];
  const [, ...rows] = parseCsv(original.toString('utf8')).records;
  return rows.map((r) => r.fields[0] ?? '');
}

async function finishPool(upload: UploadRecord, results: RowResult[]): Promise<void> {
  const ids = await poolContactIds(upload);
  const rows: PoolRowResult[] = ids.map((contact_id, i) => {
    const cell = results[i]?.cells[0];
    return cell ? { contact_id, answerIntent: cell.answerIntent, identity: cell.identity, status: cell.status } : { contact_id, missing: true };
  });
  await handlePoolUploadFinished(upload, rows, ids);
}

export const handler = finalize;
