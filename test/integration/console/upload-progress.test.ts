import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { createUpload } from '../../../lambdas/uploads/create-upload';
import { getUpload, insertUpload } from '../../../lambdas/uploads/upload-repository';
import { deleteObjects, filesBucket, putObject } from '../../../lambdas/platform/blob';
import { keys } from '../../../lambdas/uploads/upload';
import { processingProgress } from '../../../lambdas/console/upload-progress';
import { config } from '../../../lambdas/platform/config';

// The console's processing progress over the chunks the real pipeline wrote (the local runtime's
// store), for a file whose rows repeat numbers: 6,000 rows, 1,200 distinct numbers, each row its
// own name. The upload is read back as processing with its first chunk's result gone.

const service = useTestService();

function csv(): Buffer {
  const rows = ['name,phone'];
  for (let i = 0; i < 6000; i++) {
    const j = i % 1200;
    rows.push(`Person ${i},(212) ${300 + (j % 600)}-${String(2000 + j).padStart(4, '0')}`);
  }
  return Buffer.from(rows.join('\n') + '\n');
}

async function halfDone(fullNameColumn: string | undefined) {
  const made = await createUpload(
    service.runtime.ports,
    { organizationId: service.organizationId, userId: service.userId, apiKeyId: 'k' },
    { csv: csv(), filename: 'repeats.csv', mapping: { phoneColumns: ['phone'], ...(fullNameColumn ? { fullNameColumn } : {}) }, tier: 'standard', skipMobileLookup: true, source: 'api' },
  );
  await service.runtime.settleWorkflows();
  const upload = (await getUpload(made.id))!;
  expect(upload.status).toBe('completed');
  await deleteObjects(filesBucket(), [keys.chunkResult(upload, 0)]);
  return { upload, progress: await processingProgress({ ...upload, status: 'processing', updated_at: new Date(Date.now() - 10_000).toISOString() }, Date.now()) };
}

describe('processing progress of a file whose rows repeat numbers', () => {
  it('with identity the chunks hold number-and-name pairs: the count, its total and the percentage are of them, and the rows are given', async () => {
    expect(config().UPLOAD_CHUNK_SIZE).toBe(5000);
    const { upload, progress } = await halfDone('name');
    expect([upload.identity_enabled, upload.valid_number_count, upload.total_rows]).toEqual([true, 1200, 6000]);
    expect(progress).toMatchObject({ unit: 'number_name_pairs', chunks_total: 2, chunks_done: 1, numbers_done: 1000, numbers_total: 6000, percent: 16, rows_total: 6000 });
  });

  it('without identity the chunks hold distinct numbers: one chunk of 1,200 for the 6,000 rows', async () => {
    const { upload, progress } = await halfDone(undefined);
    expect([upload.identity_enabled, upload.valid_number_count]).toEqual([false, 1200]);
    expect(progress).toMatchObject({ unit: 'numbers', chunks_total: 1, chunks_done: 0, numbers_done: 0, numbers_total: 1200, percent: 0, eta_seconds: null, rows_total: 6000 });
  });

  it('counts every chunk however many there are (a 10-column file of 250,000 rows makes up to 500), checkpoint parts not taken for chunks', async () => {
    const { upload } = await halfDone(undefined);
    const many = { ...upload, id: '00000000-0000-4000-8000-00000000a260', status: 'processing' as const, updated_at: new Date(Date.now() - 60_000).toISOString() };
    await insertUpload(many);
    const bucket = filesBucket();
    const put = (key: string, body: string) => putObject(bucket, key, body, 'application/json');
    const unfinished = new Set([0, 130, 259]);
    for (let n = 0; n < 260; n += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, k) => {
          const chunk = n + k;
          await put(keys.chunk(many, chunk), chunk === 259 ? JSON.stringify(Array.from({ length: 10 }, (_, i) => ({ key: `+1212555${String(1000 + i)}` }))) : '[]');
          if (!unfinished.has(chunk)) await put(keys.chunkResult(many, chunk), '[]');
        }),
      );
    }
    await put(keys.chunkCheckpoint(many, 130), '[]');
    await put(keys.chunkCheckpointPart(many, 130, 1), '[]');
    await putObject(bucket, keys.cellItems(many), Buffer.alloc(0), 'application/octet-stream');
    const progress = await processingProgress(many, Date.now());
    expect(progress).toMatchObject({ chunks_total: 260, chunks_done: 257, numbers_total: 259 * 5000 + 10, numbers_done: 257 * 5000, percent: 99 });
  });
});
