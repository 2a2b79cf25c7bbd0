import { spawn } from 'node:child_process';
import { existsSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { acquireInstanceLock, instanceLockAddress, InstanceLockedError, probeInstance, waitForServingInstance, type InstanceLock } from '../../../local/instance-lock';
import { adoptSharedSettings, SHARED_SETTINGS, sharedSettings } from '../../../local/instance-settings';
import { tempDir } from '../../support/temp-dirs';

// The one-instance-per-data-folder lock (local/instance-lock.ts): held exactly while its process
// lives, so a dead instance (kill -9) never blocks a start. Both kinds: the abstract socket Linux
// uses, and the socket file other systems use (which works on Linux too).

const folders: string[] = [];
const held: InstanceLock[] = [];
const folder = () => {
  const dir = tempDir('lock-');
  folders.push(dir);
  return dir;
};
afterEach(async () => {
  while (held.length) await held.pop()!.release();
  while (folders.length) rmSync(folders.pop()!, { recursive: true, force: true });
});
const take = async (dir: string, platform?: NodeJS.Platform) => {
  const lock = await acquireInstanceLock(dir, { platform });
  held.push(lock);
  return lock;
};

for (const platform of ['linux', 'darwin'] as const) {
  describe(`instance lock (${platform === 'linux' ? 'abstract socket' : 'socket file'})`, () => {
    it('a second taker is refused, told who holds it; the holder publishes where it serves; released, it is free again', async () => {
      const dir = folder();
      const lock = await take(dir, platform);
      expect(await probeInstance(dir, { platform })).toEqual({ pid: process.pid, state: 'starting' });
      const refused = await acquireInstanceLock(dir, { platform }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InstanceLockedError);
      expect((refused as Error).message).toBe(`Another instance (pid ${process.pid}) is already starting from ${dir}.`);

      lock.publish({ apiUrl: 'http://127.0.0.1:1234', dynamoEndpoint: 'http://127.0.0.1:1', s3Endpoint: 'http://127.0.0.1:2', settings: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
      expect(await probeInstance(dir, { platform })).toMatchObject({ pid: process.pid, state: 'serving', apiUrl: 'http://127.0.0.1:1234', settings: { WEBHOOKS_ALLOW_LOOPBACK: 'true' } });
      const again = await acquireInstanceLock(dir, { platform }).catch((e: unknown) => e);
      expect((again as Error).message).toBe(`Another instance (pid ${process.pid}) is already serving http://127.0.0.1:1234 from ${dir}.`);

      await lock.release();
      expect(await probeInstance(dir, { platform })).toBeNull();
      await take(dir, platform);
    });

    it('held by the admin CLI on the stopped folder: a taker is told which command holds it, and nobody waits for it to serve', async () => {
      const dir = folder();
      held.push(await acquireInstanceLock(dir, { platform, adminCommand: 'mint-key' }));
      expect(await probeInstance(dir, { platform })).toEqual({ pid: process.pid, state: 'starting', adminCommand: 'mint-key' });
      const refused = await acquireInstanceLock(dir, { platform }).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(InstanceLockedError);
      expect((refused as Error).message).toBe(`The admin CLI (pid ${process.pid}, \`npm run admin -- mint-key\`) is using ${dir}.`);
      // At once, not after the minute an instance gets to finish starting.
      expect(await waitForServingInstance(dir, 3_600_000, { platform })).toMatchObject({ adminCommand: 'mint-key' });
    });

    it('two spellings of one folder (a symlink) share one lock; two folders have two', async () => {
      const dir = folder();
      const link = join(folder(), 'link');
      symlinkSync(dir, link);
      await take(dir, platform);
      await expect(acquireInstanceLock(link, { platform })).rejects.toBeInstanceOf(InstanceLockedError);
      await take(folder(), platform);
    });

    it('a holder killed with SIGKILL leaves the lock free at once', async () => {
      const dir = folder();
      // A separate process takes the lock, says so, and is killed -9 (nothing of its own runs at exit).
      const script = `import { acquireInstanceLock } from ${JSON.stringify(join(import.meta.dirname, '../../../local/instance-lock.ts'))};
        await acquireInstanceLock(${JSON.stringify(dir)}, { platform: ${JSON.stringify(platform)} }); console.log('held'); setInterval(() => {}, 1000);`;
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = new Promise((done) => child.once('exit', done));
      await new Promise<void>((done) => child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && done()));
      expect(await probeInstance(dir, { platform })).toMatchObject({ pid: child.pid, state: 'starting' });
      await expect(acquireInstanceLock(dir, { platform })).rejects.toBeInstanceOf(InstanceLockedError);
      child.kill('SIGKILL');
      await exited;
      // The socket file kind leaves its file behind; a refused connect shows nobody holds it.
      if (platform === 'darwin') expect(existsSync(join(dir, 'instance.sock'))).toBe(true);
      expect(await probeInstance(dir, { platform })).toBeNull();
      await take(dir, platform);
    });
  });
}

describe('instance lock address', () => {
  it('abstract on Linux, a pipe on Windows, the folder\'s socket file elsewhere unless its path is too long', () => {
    expect(instanceLockAddress('/data/a', 'linux')).toMatch(/^\0phone-validation-instance-[0-9a-f]{32}$/);
    expect(instanceLockAddress('/data/a', 'linux')).not.toBe(instanceLockAddress('/data/b', 'linux'));
    expect(instanceLockAddress('C:\\data', 'win32')).toMatch(/^\\\\\?\\pipe\\phone-validation-instance-[0-9a-f]{32}$/);
    expect(instanceLockAddress('/data/a', 'darwin')).toBe('/data/a/instance.sock');
    const long = `/data/${'x'.repeat(120)}`;
    expect(instanceLockAddress(long, 'darwin')).toMatch(/phone-validation-[0-9a-f]{32}\.sock$/);
    expect(instanceLockAddress(long, 'darwin').startsWith(long)).toBe(false);
  });
});

describe('settings an instance shares with the admin CLI', () => {
  it('shares development switches and names, never secrets or a crash point', () => {
    expect(SHARED_SETTINGS).toContain('WEBHOOKS_ALLOW_LOOPBACK');
    expect(SHARED_SETTINGS).toContain('CLASSIFICATION_PROVIDER');
    expect(SHARED_SETTINGS).toContain('CURSOR_SECRET_ARN');
    for (const secret of ['CURSOR_SECRET', 'TWILIO_AUTH_TOKEN', 'DEVICE_LAB_TOKEN', 'DOWNLOADS_SIGNING_PRIVATE_KEY', 'FAULT_CRASH_AT', 'TELNYX_API_KEY', 'TRESTLE_API_KEY']) expect(SHARED_SETTINGS).not.toContain(secret);
    // Every setting whose name says it holds a key or credential itself (not where one is kept: _ARN, _ID, _FILE) stays home.
    for (const name of SHARED_SETTINGS) expect(name, name).not.toMatch(/(_API_KEY|PRIVATE_KEY|SECRET|TOKEN|PASSWORD)$/);
    expect(sharedSettings({ WEBHOOKS_ALLOW_LOOPBACK: 'true', TWILIO_AUTH_TOKEN: 'tok', TABLE_NAME: '', HOME: '/root' })).toEqual({ WEBHOOKS_ALLOW_LOOPBACK: 'true' });
  });

  it("the admin's environment takes the instance's shared settings exactly and keeps its own secrets", () => {
    const env: Record<string, string | undefined> = { RATE_LIMIT_PER_KEY: '5', TWILIO_AUTH_TOKEN: 'mine', PATH: '/bin' };
    adoptSharedSettings(env, { WEBHOOKS_ALLOW_LOOPBACK: 'true', TWILIO_AUTH_TOKEN: 'theirs' });
    expect(env).toEqual({ WEBHOOKS_ALLOW_LOOPBACK: 'true', TWILIO_AUTH_TOKEN: 'mine', PATH: '/bin' });
  });
});
