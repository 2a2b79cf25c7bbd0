import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCAL_RESOURCES } from '../../local/environment';
import { newDataDir, startChild, waitFor, type Child } from './harness';
import { scaled } from '../support/wait';

// The embedded store writes a multipart upload's part whole under a temporary name, renames it
// into place, then writes its checksum (local/atomic-file-store.ts). Killed between the two, the
// upload it belongs to is never completed: the workflow's step runs again after the restart and
// writes its files in a new multipart upload (docs/reliability.md).

const children: Child[] = [];
afterEach(async () => {
  await Promise.all(children.splice(0).map((c) => c.stop()));
});

const ROWS = 150_000; // a processed file over one 5 MiB part
const numbers = Array.from({ length: ROWS }, (_, i) => `+1212${220 + Math.floor(i / 10_000)}${String(i % 10_000).padStart(4, '0')}`);

/** Parts on disk, and which of them have their checksum, across the files bucket's multipart uploads. */
function parts(dataDir: string): { part: string; checksum: boolean }[] {
  const uploads = join(dataDir, 's3', LOCAL_RESOURCES.buckets.files, '._S3rver_uploads');
  if (!existsSync(uploads)) return [];
  return readdirSync(uploads).flatMap((upload) =>
    readdirSync(join(uploads, upload))
      .filter((name) => /^\d+$/.test(name))
      .map((name) => ({ part: `${upload}/${name}`, checksum: existsSync(join(uploads, upload, `${name}.md5`)) })),
  );
}

describe('the embedded store killed between a part and its checksum', () => {
  it('the upload completes after the restart, charged once, its processed file whole', async () => {
    const dataDir = newDataDir();
    const first = await startChild(dataDir, { FAULT_CRASH_AT: 'store.part-written' }, ROWS * 2);
    children.push(first);
    const created = await first.request('POST', '/api/v1/uploads', { phone_numbers: numbers });
    expect(created.status).toBe(200);
    const { id, credits_charged: charged } = (await created.json()) as { id: string; credits_charged: number };
    expect(charged).toBe(ROWS);
    const died = await Promise.race([first.exited, new Promise<null>((r) => setTimeout(() => r(null), scaled(120_000)))]);
    expect(died, first.stderrTail()).toEqual({ code: null, signal: 'SIGKILL' });
    // Killed where the point says: a part in place without its checksum.
    expect(parts(dataDir).filter((p) => !p.checksum)).toHaveLength(1);

    const second = await startChild(dataDir, {}, ROWS * 2);
    children.push(second);
    const upload = await waitFor('the upload terminal', async () => {
      const body = (await (await second.request('GET', `/api/v1/uploads/${id}`)).json()) as { status: string; credits_refunded: number | null };
      return ['completed', 'failed'].includes(body.status) ? body : null;
    }, scaled(180_000));
    expect(upload.status).toBe('completed');
    const balance = (await (await second.request('GET', '/api/v1/credits/balance')).json()) as { total: number };
    expect(balance.total).toBe(ROWS * 2 - ROWS);
    const link = (await (await second.request('GET', `/api/v1/uploads/${id}/download/processed`)).json()) as { url: string };
    const lines = (await (await fetch(link.url)).text()).split(/\r?\n/).filter(Boolean);
    expect(lines).toHaveLength(ROWS + 1);
    expect(new Set(lines.slice(1).map((l) => l.split(',')[0]))).toHaveProperty('size', ROWS);
  }, scaled(420_000));
});
