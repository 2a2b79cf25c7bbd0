import { nowIso } from '../../platform/clock';
import { config } from '../../platform/config';
import { logger } from '../../platform/logger';
import { crashPoint } from '../../platform/crash-point';
import { filesBucket, getObject, putObject } from '../../platform/blob';
import type { AnswerIntent, IdentityBand } from '../../classification';
import { writeProcessedCsv } from '../processed-file';
import { writeCommonSlices } from '../downloads';
import { originalText } from '../work-file';
import { rowResults, summarize } from '../results';
import { keys, type UploadRecord } from '../upload';
import { getUpload, transitionUpload, uploadItemKey } from '../upload-repository';
import { flushOutbox, outboxFields } from '../../events/outbox';
import { completedEntries } from './announce';
import type { ChunkAnswer } from './classify-chunk';
import { loadUploadWork } from './prepare';
import type { DeliveryPorts } from '../../webhooks/delivery-queue-port';
import { awsDeliveryPorts } from '../../composition/aws';

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
    const answers = new Map<string, { answerIntent: AnswerIntent; identity: IdentityBand | null }>();
    let simulated = false;
    const lookupFailures: ChunkAnswer[] = [];
    for (const n of input.chunks ?? []) {
      const bytes = await getObject(bucket, keys.chunkResult(current, n));
      if (!bytes) throw new Error(`upload ${current.id}: answers of chunk ${n} missing`);
      for (const a of JSON.parse(bytes.toString('utf8')) as ChunkAnswer[]) {
        answers.set(a.key, { answerIntent: a.answerIntent as AnswerIntent, identity: a.identity as IdentityBand | null });
        simulated ||= a.simulated;
        if (a.lookupError) lookupFailures.push(a);
      }
    }
    failIfTooManyLookupsFailed(current.id, lookupFailures, answers.size);
    const [work, original] = await Promise.all([loadUploadWork(current), getObject(bucket, keys.original(current))]);
    if (!original) throw new Error(`upload ${current.id}: original missing`);
    const results = rowResults(work.rows, current.identity_enabled, (key) => answers.get(key));
    const text = originalText(original);
    await putObject(bucket, keys.results(current), JSON.stringify({ rows: results }), 'application/json');
    await putObject(bucket, keys.processed(current), writeProcessedCsv(text, work.layout, current.phone_columns, current.identity_enabled, results), 'text/csv');
    // The slices most asked for are written now, so their first download only signs a link.
    await writeCommonSlices(current, text, work.layout, results);
    crashPoint('pipeline.before-complete');
    const at = nowIso();
    const fields = { result_summary: summarize(results, current.identity_enabled, simulated), processed_available: true };
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

/** Time allowed between an upload's end and the settling of what it still owes (refund, pooled contacts). */
export const SETTLE_BOUND_MS = 5 * 60_000;

/** The workflow step's Lambda, wired by the AWS composition root. */
export const handler = (input: Parameters<typeof finalize>[1]) => finalize(awsDeliveryPorts(), input);
