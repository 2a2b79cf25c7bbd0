import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { localStoreSecret } from '../../../local/environment';
import { loadSecrets, savedConsoleSignIns } from '../../../local/console-seed';
import { logger } from '../../../lambdas/platform/logger';
import { tempDir } from '../../support/temp-dirs';

// Files of the data folder that `npm start` generates again when they hold nothing usable (empty:
// 0 bytes or whitespace, or damaged): nothing stored becomes unreadable and nobody is locked out,
// but what it costs is said in a WARN line naming the file (the key files refuse instead:
// test/unit/platform/key-file.test.ts).

afterEach(() => vi.restoreAllMocks());

describe('store-secret', () => {
  it('kept as it is; created without a word when missing', () => {
    const dir = tempDir('data-files-');
    const warn = vi.spyOn(logger, 'warn');
    const first = localStoreSecret(dir);
    expect(localStoreSecret(dir)).toEqual(first);
    expect(warn).not.toHaveBeenCalled();
  });

  it.each([
    ['', 'was empty'],
    [' \n\t\n', 'was empty'],
    ['half a secret', 'held no store secret'],
  ])('holding %j: a new one, with a WARN naming the file, what it held and what replacing it costs', (content, said) => {
    const dir = tempDir('data-files-');
    const file = join(dir, 'store-secret');
    writeFileSync(file, content);
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const secret = localStoreSecret(dir);
    expect(secret.secretAccessKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(file, 'utf8')).toBe(secret.secretAccessKey);
    expect(warn).toHaveBeenCalledWith(
      `${file} ${said}: a new secret was generated. It only signs requests to the embedded table and file store, so no data becomes unreadable; download and staging links handed out before this start stop working (403)`,
      { file },
    );
  });
});

describe('console-oidc.json', () => {
  it('kept as it is; created without a word when missing; only the start that created it is told so (it prints the passwords)', async () => {
    const dir = tempDir('data-files-');
    const warn = vi.spyOn(logger, 'warn');
    const first = await loadSecrets(dir);
    expect(first.created).toBe(true);
    expect(await loadSecrets(dir)).toEqual({ secrets: first.secrets, created: false });
    expect(warn).not.toHaveBeenCalled();
    // What `npm run admin -- console-passwords` shows.
    expect(savedConsoleSignIns(dir)).toEqual({
      owner: { email: 'demo@example.com', password: first.secrets.passwords.owner },
      member: { email: 'member@example.com', password: first.secrets.passwords.member },
    });
  });

  it('console-passwords on a folder without sign-ins says npm start makes them', () => {
    const dir = tempDir('data-files-');
    expect(() => savedConsoleSignIns(dir)).toThrow(`${join(dir, 'console-oidc.json')} holds no console sign-ins: \`npm start\` creates them, and prints them, at its next start`);
  });

  it.each([
    ['', 'was empty'],
    ['  \n', 'was empty'],
    ['{"keys":', 'held no console keys and passwords'],
  ])('holding %j: new keys and passwords, with a WARN naming the file and what it costs (sign-ins end, demo passwords change)', async (content, said) => {
    const dir = tempDir('data-files-');
    const file = join(dir, 'console-oidc.json');
    writeFileSync(file, content);
    const warn = vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const { secrets, created } = await loadSecrets(dir);
    expect(created).toBe(true); // so this start prints the new passwords
    expect(secrets.passwords.owner).toBeTruthy();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(secrets);
    expect(warn).toHaveBeenCalledWith(
      `${file} ${said}: new ones were generated. Everyone signed in to the web console is signed out, and the demo owner's and member's passwords changed (this start prints the new ones); invited members' sign-ins and all data are unaffected`,
      { file },
    );
  });
});
