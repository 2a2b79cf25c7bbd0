import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { oidcAdapter } from '../../../local/console-oidc-store';
import { tempDir } from '../../support/temp-dirs';

// The local provider's store: a second adapter on the same file is the provider after a restart.

const dirs: string[] = [];
const fileIn = () => {
  const dir = tempDir('oidc-store-');
  dirs.push(dir);
  return join(dir, 'sessions.json');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the local OIDC provider store', () => {
  it('keeps sessions, grants and consumed codes across a restart, readable by the owner only', async () => {
    const file = fileIn();
    const Before = oidcAdapter(file);
    await new Before('Session').upsert('s1', { accountId: 'u1', uid: 'uid-1' }, 3600);
    await new Before('Grant').upsert('g1', { accountId: 'u1' }, 3600);
    await new Before('AuthorizationCode').upsert('c1', { grantId: 'g1' }, 60);
    await new Before('AuthorizationCode').consume('c1');
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const After = oidcAdapter(file);
    expect(await new After('Session').find('s1')).toEqual({ accountId: 'u1', uid: 'uid-1' });
    expect(await new After('Session').findByUid('uid-1')).toEqual({ accountId: 'u1', uid: 'uid-1' });
    expect(await new After('Grant').find('g1')).toEqual({ accountId: 'u1' });
    expect((await new After('AuthorizationCode').find('c1'))?.consumed).toEqual(expect.any(Number));
  });

  it('forgets what was destroyed or revoked, and what expired while it was stopped', async () => {
    const file = fileIn();
    const Before = oidcAdapter(file);
    await new Before('Session').upsert('gone', { accountId: 'u1' }, 3600);
    await new Before('Session').destroy('gone');
    await new Before('AccessToken').upsert('t1', { grantId: 'g9' }, 3600);
    await new Before('AccessToken').upsert('t2', { grantId: 'g8' }, 3600);
    await new Before('AccessToken').revokeByGrantId('g9');
    await new Before('Interaction').upsert('short', { uid: 'x' }, 1);
    // Stopped past the interaction's expiry: on load it is not there.
    const saved = JSON.parse(readFileSync(file, 'utf8')) as Record<string, Record<string, { expiresAt: number }>>;
    saved.Interaction!.short!.expiresAt = Date.now() - 1;
    writeFileSync(file, JSON.stringify(saved));

    const After = oidcAdapter(file);
    expect(await new After('Session').find('gone')).toBeUndefined();
    expect(await new After('AccessToken').find('t1')).toBeUndefined();
    expect(await new After('AccessToken').find('t2')).toEqual({ grantId: 'g8' });
    expect(await new After('Interaction').find('short')).toBeUndefined();
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).Interaction)).toEqual(['short']);
    await new After('Interaction').upsert('next', { uid: 'y' }, 600);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')).Interaction)).toEqual(['next']);
  });

  it('starts signed out, rather than not at all, from a damaged file; without a file nothing is written', async () => {
    const file = fileIn();
    writeFileSync(file, '{"Session": {"s1": ');
    const Adapter = oidcAdapter(file);
    expect(await new Adapter('Session').find('s1')).toBeUndefined();
    await new Adapter('Session').upsert('s2', { accountId: 'u2' }, 60);
    expect(JSON.parse(readFileSync(file, 'utf8')).Session.s2.payload).toEqual({ accountId: 'u2' });

    const Memory = oidcAdapter(null);
    await new Memory('Session').upsert('m1', { accountId: 'u3' }, 60);
    expect(await new Memory('Session').find('m1')).toEqual({ accountId: 'u3' });
    // Each adapter class has its own stores: another provider does not see these.
    expect(await new (oidcAdapter(null))('Session').find('m1')).toBeUndefined();
  });
});
