import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadInvitedLogins, localMemberInviter } from '../../../local/console-invites';
import { oidcAdapter } from '../../../local/console-oidc-store';
import { logger } from '../../../lambdas/platform/logger';
import { tempDir } from '../../support/temp-dirs';

// A damaged invitations file was read as "no invitations", and the next invitation wrote over it:
// every member invited before lost their sign-in for good, without a word.

afterEach(() => vi.restoreAllMocks());

const invite = (dir: string, email: string) =>
  localMemberInviter({ logins: [], dataDir: () => dir, origin: () => 'http://127.0.0.1:1', log: () => {} }).invite({ id: `u-${email}`, email } as never);

describe('the invited members file', () => {
  it('keeps every invitation across loads', async () => {
    const dir = tempDir('invites-');
    await invite(dir, 'a@example.com');
    await invite(dir, 'b@example.com');
    expect(loadInvitedLogins(dir).map((l) => l.email)).toEqual(['a@example.com', 'b@example.com']);
  });

  it.each([
    ['not JSON', '{"userId": "u-a", "email": "a@exa'],
    ['not a list', '{"userId": "u-a"}'],
    ['a login not whole', '[{"userId": "u-a", "email": "a@example.com", "password": "p"}, {"email": "b@example.com"}]'],
  ])('%s: moved aside with a WARN naming both files, never written over by the next invitation', async (_, damaged) => {
    const dir = tempDir('invites-');
    const path = join(dir, 'console-invites.json');
    writeFileSync(path, damaged);
    const warn = vi.spyOn(logger, 'warn');
    expect(loadInvitedLogins(dir)).toEqual([]);
    const aside = readdirSync(dir).filter((n) => n.startsWith('console-invites.json.damaged-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(damaged);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('moved aside'), { file: path, moved_to: join(dir, aside[0]!) });
    await invite(dir, 'c@example.com');
    expect(loadInvitedLogins(dir).map((l) => l.email)).toEqual(['c@example.com']);
    expect(readFileSync(join(dir, aside[0]!), 'utf8')).toBe(damaged);
  });

  it('none yet: no file, no WARN', () => {
    const dir = tempDir('invites-');
    const warn = vi.spyOn(logger, 'warn');
    expect(loadInvitedLogins(dir)).toEqual([]);
    expect(existsSync(join(dir, 'console-invites.json'))).toBe(false);
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('the sign-in sessions file', () => {
  it('unreadable: everyone signed out, said in a WARN naming the file; missing: nothing said', () => {
    const dir = tempDir('sessions-');
    const warn = vi.spyOn(logger, 'warn');
    oidcAdapter(join(dir, 'console-oidc-sessions.json'));
    expect(warn).not.toHaveBeenCalled();
    const path = join(dir, 'damaged.json');
    writeFileSync(path, '{"Session": {');
    oidcAdapter(path);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining('sign in again'), expect.objectContaining({ file: path }));
  });
});
