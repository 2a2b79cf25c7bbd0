import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startRuntime, type Runtime } from '../../../local/runtime';
import { LOCAL_RESOURCES } from '../../../local/environment';
import { logger } from '../../../lambdas/platform/logger';
import { reloadConfig } from '../../../lambdas/platform/config';
import { expiredDetail, lostDetail } from '../../../lambdas/uploads/missing-file';
import { manualClock } from '../../support/manual-clock';
import { tempDir } from '../../support/temp-dirs';

// A completed upload whose stored file went missing, the way it happens locally: the embedded
// store's start-up check moves a damaged object to DATA_DIR/s3-quarantine/ (local/file-store-repair.ts).
// The download answers 410 saying so, not a link that 404s, and logs an ERROR for the operator;
// a file gone after the retention period (AWS's lifecycle rule) is a 410 too, but expected: INFO.

const BUCKET = LOCAL_RESOURCES.buckets.files;
const DAY_MS = 86_400_000;
const clock = manualClock();
const start = (dataDir: string) => startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: true, clock });

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.UPLOADS_RETENTION_DAYS;
  reloadConfig();
});

/** Damages an object's files as the embedded store keeps them, so that its start-up check takes it out. */
function damage(dataDir: string, key: string): void {
  writeFileSync(`${join(dataDir, 's3', BUCKET, ...key.split('/'))}._S3rver_metadata.json`, '{"content-ty');
}

/** The logger's lines of one level, as (message, keys), from now on. */
function logLines(level: 'info' | 'error'): Array<[string, Record<string, unknown>]> {
  const lines: Array<[string, Record<string, unknown>]> = [];
  vi.spyOn(logger, level).mockImplementation((message: string, extra?: Record<string, unknown>) => void lines.push([message, extra ?? {}]));
  return lines;
}

describe('a download whose file is missing from storage', () => {
  it('answers 410 in the error envelope and logs an ERROR naming the upload and the key, unless the retention period removed it', async () => {
    const dataDir = tempDir('pvs-missing-file-');
    let runtime: Runtime = await start(dataDir);
    // A demo key never shown on a terminal is minted again at each start (local/seed.ts).
    let key = runtime.demo!.apiKey!;
    const restart = async () => {
      await runtime.stop();
      runtime = await start(dataDir);
      key = runtime.demo!.apiKey ?? key;
    };
    const call = (path: string) => fetch(`${runtime.url}${path}`, { headers: { authorization: `Bearer ${key}` } });
    try {
      const res = await fetch(`${runtime.url}/api/v1/uploads`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ phone_numbers: Array.from({ length: 120 }, (_, i) => `+1212555${String(1000 + i)}`) }),
      });
      expect(res.status).toBe(200);
      const upload = (await res.json()) as { id: string; organization_id: string; created_at: string };
      await runtime.settleWorkflows();
      expect(((await (await call(`/api/v1/uploads/${upload.id}`)).json()) as { status: string }).status).toBe('completed');
      expect((await call(`/api/v1/uploads/${upload.id}/download/processed`)).status).toBe(200);
      const processedKey = `uploads/${upload.organization_id}/${upload.id}/processed.csv`;
      const originalKey = `uploads/${upload.organization_id}/${upload.id}/original.csv`;

      damage(dataDir, processedKey);
      await restart();
      expect(readdirSync(join(dataDir, 's3-quarantine'))).toHaveLength(1);
      let errors = logLines('error');
      const gone = await call(`/api/v1/uploads/${upload.id}/download/processed`);
      expect(gone.status).toBe(410);
      expect(await gone.json()).toEqual({ detail: lostDetail('processed') });
      expect(errors).toEqual([['upload file missing from storage', expect.objectContaining({ upload_id: upload.id, organization_id: upload.organization_id, file: 'processed', key: processedKey })]]);
      // What is still stored still links: a slice (built from the slice base), the original; the upload reads.
      expect((await call(`/api/v1/uploads/${upload.id}/download/processed?statuses=Unknown`)).status).toBe(200);
      expect((await call(`/api/v1/uploads/${upload.id}/download/original`)).status).toBe(200);
      expect((await call(`/api/v1/uploads/${upload.id}`)).status).toBe(200);

      // Gone after the retention period (AWS's lifecycle rule; the stack sets the days): expected, said so, INFO.
      damage(dataDir, originalKey);
      process.env.UPLOADS_RETENTION_DAYS = '1';
      clock.set(() => Date.parse(upload.created_at) + 2 * DAY_MS);
      await restart();
      errors = logLines('error');
      const infos = logLines('info');
      const expired = await call(`/api/v1/uploads/${upload.id}/download/original`);
      expect(expired.status).toBe(410);
      expect(await expired.json()).toEqual({ detail: expiredDetail(1) });
      expect(errors).toEqual([]);
      expect(infos).toContainEqual(['upload file expired by retention', expect.objectContaining({ upload_id: upload.id, file: 'original', key: originalKey, retention_days: 1 })]);
      // Within the period, the same missing original is lost.
      clock.set(null);
      const lost = await call(`/api/v1/uploads/${upload.id}/download/original`);
      expect(lost.status).toBe(410);
      expect(await lost.json()).toEqual({ detail: lostDetail('original') });
      expect(errors).toEqual([['upload file missing from storage', expect.objectContaining({ upload_id: upload.id, file: 'original', key: originalKey })]]);
    } finally {
      clock.set(null);
      await runtime.stop();
    }
  });
});
