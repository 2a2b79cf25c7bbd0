import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A key of this installation kept in the data folder: 32 random bytes as hex, generated on first
 * start, readable by the owner only (mode 0600), so it survives restarts and no two installations
 * share it. Two processes starting at once agree on the first one written. A file that holds no
 * key is refused, saying what a new key would cost (`replacing`), since deleting it is the way out.
 */
export function keyFileIn(dataDir: string, name: string, replacing: string): string {
  const file = join(dataDir, name);
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const created = readKey(file);
  if (!created) throw new Error(`${file} must hold at least 32 characters: restore it from a backup of the data folder, or delete it to have a new one generated (${replacing})`);
  return created;
}

function readKey(file: string): string | null {
  try {
    const key = readFileSync(file, 'utf8').trim();
    return key.length >= 32 ? key : null;
  } catch {
    return null;
  }
}
