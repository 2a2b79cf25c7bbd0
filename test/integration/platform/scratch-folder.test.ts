import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../../local/runtime';

// A runtime without a data folder keeps its files in a temporary folder; every test runtime and
// bench run is one, so a folder left behind at each stop filled the disk (tens of GB in a day).

const parent = mkdtempSync(join(tmpdir(), 'scratch-test-'));
const tmpBefore = process.env.TMPDIR;
afterAll(() => {
  if (tmpBefore === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = tmpBefore;
  rmSync(parent, { recursive: true, force: true });
});

describe('a runtime without a data folder', () => {
  it('keeps its files in a temporary folder while it runs and removes the folder when it stops', async () => {
    process.env.TMPDIR = parent; // os.tmpdir() reads it at each call
    const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 1024 * 1024, seedDemo: false });
    process.env.TMPDIR = tmpBefore ?? '';
    const during = readdirSync(parent);
    expect(during).toHaveLength(1);
    expect(readdirSync(join(parent, during[0]!))).toContain('s3');
    await runtime.stop();
    expect(readdirSync(parent)).toEqual([]);
  });
});
