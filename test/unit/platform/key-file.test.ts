import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keyFileIn } from '../../../local/key-file';
import { tempDir } from '../../support/temp-dirs';

describe('installation key files', () => {
  it('generates a key once, readable by its owner only, and reads it back after', () => {
    const dir = tempDir('key-file-');
    const key = keyFileIn(dir, 'k', 'nothing');
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(dir, 'k')).mode & 0o777).toBe(0o600);
    expect(keyFileIn(dir, 'k', 'nothing')).toBe(key);
  });

  it('refuses a damaged key file, saying to restore it and what deleting it costs, and never replaces it', () => {
    const dir = tempDir('key-file-');
    writeFileSync(join(dir, 'secrets-key'), 'short\n');
    expect(() => keyFileIn(dir, 'secrets-key', 'stored secrets can no longer be opened')).toThrow(
      `${join(dir, 'secrets-key')} must hold at least 32 characters: restore it from a backup of the data folder, or delete it to have a new one generated (stored secrets can no longer be opened)`,
    );
    expect(readFileSync(join(dir, 'secrets-key'), 'utf8')).toBe('short\n');
  });
});
