import { filesBucket, getObject, putObject } from '../../platform/blob';
import { config } from '../../platform/config';
import { logger } from '../../platform/logger';
import { jsonArrayBytes } from '../../platform/json-array-bytes';
import { classifyBatch, screenBatch, type ClassificationPorts, type ClassifyResult, type SignalProvider } from '../../classification';
import { countLookup, noLookups, publishLookupMetrics, type LookupCounts } from '../../classification/lookup-usage';
import { keys, type UploadRecord } from '../upload';
import { getUpload } from '../upload-repository';
import { classifyBudgetMs, finishDeadline, FINISH_GRACE, takesAnother } from './classify-budget';
import { screenFeed } from './screen-feed';
import { releaseContainerLimiters } from '../../ratelimit/shared-limiter';
import { openCheckpoint, type ChunkAnswer, type ChunkCheckpoint, type Entry } from './chunk-checkpoint';
import type { ChunkItem } from './prepare';

export type { ChunkAnswer } from './chunk-checkpoint';

export interface ClassifyChunkInput {
  upload_id: string;
  chunk: number;
}

export interface ClassifyChunkOutput extends ClassifyChunkInput {
  /** Every item has its answer and the chunk's result is written; else the workflow calls again. */
  done: boolean;
  /** Items answered so far. */
  count: number;
  /** Items in the chunk. */
  total: number;
}

/** What the Lambda runtime passes as the handler's second argument (only the remaining time is read). */
export interface InvocationContext {
  getRemainingTimeInMillis?: () => number;
}

/** A provider that costs nothing per lookup: its answers need no checkpoint. */
const isFree = (provider: SignalProvider): boolean => provider.simulated || provider.name === 'offline';

/**
 * Classifies one chunk, time-boxed: looks numbers up for at most the invocation's budget
 * (classify-budget.ts), recording every paid answer in the chunk's checkpoint before its worker
 * takes another number, and answers `done: false` when numbers are left; the workflow then calls
 * again (the Choice after ClassifyChunk). A retried, timed-out or killed invocation resumes from
 * the checkpoint, so no number that has an answer is looked up (or paid for) again. A chunk whose
 * result exists is done. The provider is the root's, built once and reused by every chunk.
 */
export async function classifyChunk(ports: ClassificationPorts, input: ClassifyChunkInput, context?: InvocationContext): Promise<ClassifyChunkOutput> {
  const started = Date.now();
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  const bucket = filesBucket();
  const out = (done: boolean, count: number, total: number): ClassifyChunkOutput => ({ upload_id: input.upload_id, chunk: input.chunk, done, count, total });
  // Failed meanwhile (recovery gave up on it and refunded its credits): nothing more is bought for
  // it, and Finalize, finding it failed, writes nothing.
  if (upload.status !== 'processing') {
    logger.warn('chunk skipped: the upload is no longer processing', { upload_id: upload.id, chunk: input.chunk, status: upload.status });
    return out(true, 0, 0);
  }
  const existing = await getObject(bucket, keys.chunkResult(upload, input.chunk));
  if (existing) {
    const count = (JSON.parse(existing.toString('utf8')) as unknown[]).length;
    return out(true, count, count);
  }
  const bytes = await getObject(bucket, keys.chunk(upload, input.chunk));
  if (!bytes) throw new Error(`upload ${upload.id}: chunk ${input.chunk} missing`);
  const items = JSON.parse(bytes.toString('utf8')) as ChunkItem[];
  const provider = await ports.provider();
  // What this invocation's lookups cost, by origin: one metric line per invocation, whatever happens.
  const counts = noLookups();
  try {
    let answers: ReadonlyMap<number, ChunkAnswer>;
    if (isFree(provider)) {
      answers = new Map((await lookUp(provider, upload, items, items.map((_, i) => i), counts)).map(([i, a]) => [i, a]));
    } else {
      const settings = config();
      const remaining = context?.getRemainingTimeInMillis?.();
      const time = { started, deadline: started + classifyBudgetMs(settings.CLASSIFY_TIME_BUDGET_MS, remaining), stretched: started + classifyBudgetMs(settings.CLASSIFY_TIME_BUDGET_MS * (1 + FINISH_GRACE), remaining) };
      const checkpoint = await openCheckpoint(upload, input.chunk);
      try {
        await lookUpPaid(provider, upload, input.chunk, items, checkpoint, time, Math.max(1, settings.CLASSIFY_CONCURRENCY), counts);
      } finally {
        // The turn's lookups are over: slots leased ahead and not used go back to the other chunks.
        await releaseContainerLimiters();
      }
      answers = checkpoint.answers;
      if (answers.size < items.length) {
        await checkpoint.fold();
        return out(false, answers.size, items.length);
      }
    }
    return await writeResult(upload, input.chunk, items, answers, out);
  } finally {
    publishLookupMetrics(provider.name, counts);
  }
}

async function writeResult(upload: UploadRecord, chunk: number, items: ChunkItem[], answers: ReadonlyMap<number, ChunkAnswer>, out: (done: boolean, count: number, total: number) => ClassifyChunkOutput): Promise<ClassifyChunkOutput> {
  const ordered = items.map((item, i) => {
    const answer = answers.get(i);
    if (!answer || answer.key !== item.key) throw new Error(`upload ${upload.id}: chunk ${chunk} item ${i} has no answer of its own`);
    return answer;
  });
  await putObject(filesBucket(), keys.chunkResult(upload, chunk), jsonArrayBytes(ordered), 'application/json');
  return out(true, ordered.length, items.length);
}

/** When an invocation started, its budget's deadline, and the latest a nearly done one goes on to (finishDeadline). */
interface InvocationTime {
  started: number;
  deadline: number;
  stretched: number;
}

/**
 * Paid lookups: `concurrency` workers each take the next number without an answer, look it up and
 * wait until its answer is in the checkpoint before taking another, until the deadline (stretched
 * once, when it is reached, if the numbers left are done by then at the pace so far). At most
 * `concurrency` paid answers are ever unrecorded, and only a kill in that moment can repeat them.
 */
async function lookUpPaid(provider: SignalProvider, upload: UploadRecord, chunk: number, items: ChunkItem[], checkpoint: ChunkCheckpoint, time: InvocationTime, concurrency: number, counts: LookupCounts): Promise<void> {
  const answeredBefore = checkpoint.answers.size;
  let deadline: number | null = null;
  const until = (now: number): number => {
    if (deadline !== null || now < time.deadline) return deadline ?? time.deadline;
    const answers = checkpoint.answers.size;
    return (deadline = finishDeadline({ started: time.started, now, answered: answers - answeredBefore, left: items.length - answers }, time.deadline, time.stretched));
  };
  // What the range screen and the lookup cache answer is recorded as it is read, a batch at a time
  // (screen-feed.ts); only the numbers left are looked up, one at a time.
  const pending = items.map((_, i) => i).filter((i) => !checkpoint.answers.has(i));
  const feed = screenFeed(
    pending,
    async (batch) => {
      const answered = await screen(provider, upload, items, batch, counts);
      if (answered.length) await checkpoint.record(answered);
      return batch.filter((i) => !checkpoint.answers.has(i));
    },
    concurrency,
  );
  let failed = false;
  const worker = async () => {
    for (let taken = 0, now = Date.now(); !failed && takesAnother(now, until(now), taken); taken++, now = Date.now()) {
      try {
        const index = await feed.take();
        if (index === undefined) return;
        // The item is the claimant: a retry of this chunk takes its own claims over at once.
        await checkpoint.record(await lookUp(provider, upload, items, [index], counts, `${upload.id}#${chunk}#${index}`));
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  const results = await Promise.allSettled(Array.from({ length: Math.min(concurrency, pending.length) }, worker));
  const failure = results.find((r) => r.status === 'rejected');
  if (failure) {
    // What the other workers recorded stays; the Task's retry resumes from it.
    await checkpoint.fold().catch(() => undefined);
    throw failure.reason;
  }
}

async function screen(provider: SignalProvider, upload: UploadRecord, items: ChunkItem[], indexes: number[], counts: LookupCounts): Promise<Entry[]> {
  const results = await screenBatch(provider, indexes.map((i) => ({ e164: items[i]!.e164, name: items[i]!.name })), classifyOptions(upload));
  return results.flatMap((r, j) => {
    if (!r) return [];
    countLookup(counts, r);
    return [entryOf(indexes[j]!, items[indexes[j]!]!, r)];
  });
}

// The upload is the lane: uploads waiting on the shared rate in one container are served in turn.
const classifyOptions = (upload: UploadRecord) => ({ tier: upload.validation_tier, skipMobileLookup: upload.skip_mobile_lookup, organizationId: upload.organization_id, lane: upload.id });

function entryOf(index: number, item: ChunkItem, r: ClassifyResult): Entry {
  return [index, { key: item.key, answerIntent: r.answerIntent, identity: r.identity, simulated: r.simulated, ...(r.lookupError ? { lookupError: r.lookupError } : {}), ...(r.origin === 'paid' || r.origin === 'cache' ? { origin: r.origin } : {}) }];
}

async function lookUp(provider: SignalProvider, upload: UploadRecord, items: ChunkItem[], indexes: number[], counts: LookupCounts, claimant?: string): Promise<Entry[]> {
  const batch = indexes.map((i) => items[i]!);
  const results = await classifyBatch(provider, batch.map((i) => ({ e164: i.e164, name: i.name })), { ...classifyOptions(upload), ...(claimant ? { claimant } : {}) });
  for (const r of results) countLookup(counts, r);
  return results.map((r, j) => entryOf(indexes[j]!, batch[j]!, r));
}
