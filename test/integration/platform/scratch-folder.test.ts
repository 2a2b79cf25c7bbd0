import { existsSync, readdirSync, rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { startRuntime } from '../../../local/runtime';
import { tempDir } from '../../support/temp-dirs';

// A runtime without a data folder keeps its files in a temporary folder; every test runtime and
// bench run is one, so a folder left behind at each stop filled the disk (tens of GB in a day).

describe('a runtime without a data folder', () => {
  it('keeps its files in a temporary folder while it runs and removes the folder when it stops', async () => {
    const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 1024 * 1024, seedDemo: false });
    const scratch = runtime.scratchDir!;
    expect(readdirSync(scratch)).toContain('s3');
    await runtime.stop();
    expect(existsSync(scratch)).toBe(false);
  });

  it('has none with a data folder', async () => {
    const dataDir = tempDir('scratch-data-');
    try {
      const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: false });
      expect(runtime.scratchDir).toBeNull();
      await runtime.stop();
      expect(readdirSync(dataDir)).toContain('s3'); // the data folder stays
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
