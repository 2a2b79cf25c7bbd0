import { filesBucket, getObject, putObject } from '../../platform/blob';
import { classifyBatch, createProviderFromEnv, type LookupOrigin } from '../../classification';
import { lookupCountsOf, publishLookupMetrics } from '../../classification/lookup-usage';
import { keys } from '../upload';
import { getUpload } from '../upload-repository';
import type { ChunkItem } from './prepare';

export interface ChunkAnswer {
  key: string;
  answerIntent: string;
  identity: string | null;
  simulated: boolean;
  /** Why the provider could not look this number up (it is Unknown); the upload's failed share counts these. */
  lookupError?: string;
  /** Paid lookup or cache (Finalize sums them into the upload); absent when free. */
  origin?: LookupOrigin;
}

/**
 * Classifies one chunk and writes its answers next to it. A chunk whose answers exist is not
 * classified again, so a retried Map iteration costs nothing twice.
 */
export async function classifyChunk(input: { upload_id: string; chunk: number }): Promise<{ chunk: number; count: number }> {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  const bucket = filesBucket();
  const resultKey = keys.chunkResult(upload, input.chunk);
  const existing = await getObject(bucket, resultKey);
  if (existing) return { chunk: input.chunk, count: (JSON.parse(existing.toString('utf8')) as unknown[]).length };
  const bytes = await getObject(bucket, keys.chunk(upload, input.chunk));
  if (!bytes) throw new Error(`upload ${upload.id}: chunk ${input.chunk} missing`);
  const items = JSON.parse(bytes.toString('utf8')) as ChunkItem[];
  const provider = await createProviderFromEnv();
  const results = await classifyBatch(provider, items.map((i) => ({ e164: i.e164, name: i.name })), {
    tier: upload.validation_tier,
    skipMobileLookup: upload.skip_mobile_lookup,
    organizationId: upload.organization_id,
  });
  publishLookupMetrics(provider.name, lookupCountsOf(results));
  const answers: ChunkAnswer[] = results.map((r, i) => ({ key: items[i]!.key, answerIntent: r.answerIntent, identity: r.identity, simulated: r.simulated, ...(r.lookupError ? { lookupError: r.lookupError } : {}), ...(r.origin === 'paid' || r.origin === 'cache' ? { origin: r.origin } : {}) }));
  await putObject(bucket, resultKey, JSON.stringify(answers), 'application/json');
  return { chunk: input.chunk, count: answers.length };
}
