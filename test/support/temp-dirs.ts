import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// Temporary folders a test file makes (cloud assemblies, crash-test data folders), removed when the
// file ends by test/support/remove-temp-dirs.ts. Left to themselves they filled the disk: every
// synth of the stack without an outdir copies ~25 MB of assets into a fresh os.tmpdir() folder,
// about 30 per run of the suite.

const made: string[] = [];

/** A fresh folder under os.tmpdir(), removed when the test file that made it ends. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}

/** Removes every folder tempDir made so far. */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}
