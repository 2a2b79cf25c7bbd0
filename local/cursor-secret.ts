import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key of pagination cursors for `npm start` (docs/architecture.md): generated on first start
 * and kept in the data folder, so cursors stay valid across restarts and no two installations share
 * a key. Readable by the owner only.
 */
export function localCursorSecret(dataDir: string): string {
  const file = join(dataDir, 'cursor-secret');
  const existing = readSecret(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = readSecret(file);
  if (!created) throw new Error(`${file} must hold at least 32 characters; delete it to have a new one generated`);
  return created;
}

function readSecret(file: string): string | null {
  try {
    const secret = readFileSync(file, 'utf8').trim();
    return secret.length >= 32 ? secret : null;
  } catch {
    return null;
  }
}
