import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../support/bundled-entry';
import { tempDir } from '../../support/temp-dirs';

const run = promisify(execFile);
const dataDir = tempDir('admin-cli-');
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/**
 * Runs the CLI's program (`npm run admin -- …`, bundled: test/support/bundled-entry.ts) against a
 * data folder (the shared one unless given), as an operator would.
 */
async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return adminIn(dataDir, ...args);
}

async function adminIn(folder: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], {
      env: { ...process.env, DATA_DIR: folder, POWERTOOLS_LOG_LEVEL: 'ERROR' },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

describe('admin CLI against the local data folder', () => {
  it('creates an organization, an owner and a key, then shows the balance', async () => {
    const org = await admin('create-org', '--name', 'CLI Org', '--subscription', 'active', '--credits', '250');
    expect(org.code).toBe(0);
    const orgId = (JSON.parse(org.stdout) as { id: string }).id;
    const user = JSON.parse((await admin('create-user', '--email', 'ops@example.com')).stdout) as { id: string };
    expect((await admin('add-member', '--org', orgId, '--user', user.id, '--role', 'owner')).code).toBe(0);
    const minted = JSON.parse((await admin('mint-key', '--org', orgId, '--user', user.id)).stdout) as { key: string };
    expect(minted.key).toMatch(/^svc_live_/);
    const listed = await admin('list-keys', '--org', orgId);
    expect(listed.stdout).toContain(minted.key.slice(0, 12));
    expect(listed.stdout).not.toContain(minted.key);
    expect(JSON.parse((await admin('balance', '--org', orgId)).stdout)).toEqual({ total: 250, subscription: 0, purchased: 250 });
  });

  it('usage prints the lookups of an organization\'s uploads since a time as JSON, and refuses a time it cannot read', async () => {
    const orgId = (JSON.parse((await admin('create-org', '--name', 'Usage Org')).stdout) as { id: string }).id;
    const usage = await admin('usage', '--org', orgId, '--since', '2026-01-01');
    expect(usage.code, usage.stderr).toBe(0);
    expect(JSON.parse(usage.stdout)).toEqual({ lookups_paid: 0, lookups_cached: 0, lookups_failed: 0, uploads: 0 });
    const bad = await admin('usage', '--org', orgId, '--since', 'last tuesday');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--since must be an ISO 8601 date or time');
    expect((await admin('usage', '--org', orgId)).stderr).toContain('--since is required');
  });

  it('answers bad input with a clear message and a non-zero exit', async () => {
    // Each call on a fresh data folder of its own, so they can run at once: the local store opens
    // a data folder in one process at a time.
    const fresh = (...args: string[]) => {
      const folder = tempDir('admin-cli-bad-');
      return adminIn(folder, ...args).finally(() => rmSync(folder, { recursive: true, force: true }));
    };
    const [missing, unknownOrg, notANumber, unknownCommand, unknownFlag] = await Promise.all([
      fresh('balance'),
      fresh('add-credits', '--org', 'nope', '--amount', '5'),
      fresh('add-credits', '--org', 'x', '--amount', 'ten'),
      fresh('frobnicate'),
      fresh('balance', '--organisation', 'x'),
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('--org is required');
    expect(unknownOrg.code).toBe(1);
    expect(unknownOrg.stderr).toContain('organization nope does not exist');
    expect(notANumber.stderr).toContain('--amount must be a whole number');
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toContain("Unknown command 'frobnicate'");
    expect(unknownFlag.code).toBe(2);
  });
});

describe('admin CLI output: JSON alone on stdout, logs on stderr', () => {
  /** Runs with the logs on (INFO), as an operator's shell would. */
  async function verbose(folder: string, ...args: string[]) {
    try {
      const { stdout, stderr } = await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], { env: { ...process.env, DATA_DIR: folder, POWERTOOLS_LOG_LEVEL: 'INFO' } });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, stdout: e.stdout, stderr: e.stderr };
    }
  }

  it('every command that logs (run-billing-period, spam-run, run-contact-pool) prints only its JSON on stdout', async () => {
    const folder = tempDir('admin-cli-json-');
    try {
      const org = await verbose(folder, 'create-org', '--name', 'Logs', '--subscription', 'active', '--credits', '10', '--monthly', '100');
      expect(org.code).toBe(0);
      const orgId = (JSON.parse(org.stdout) as { id: string }).id;
      for (const args of [['run-billing-period'], ['spam-run', '--org', orgId], ['run-contact-pool'], ['balance', '--org', orgId], ['list-keys', '--org', orgId]]) {
        const result = await verbose(folder, ...args);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
        // The whole of stdout is one JSON document.
        expect(() => JSON.parse(result.stdout), `${args.join(' ')} printed: ${result.stdout}`).not.toThrow();
      }
      // The logs still reach the operator, on stderr, as JSON lines.
      const billing = await verbose(folder, 'run-billing-period');
      const lines = billing.stderr.split('\n').filter((line) => line.startsWith('{'));
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines) expect(JSON.parse(line)).toHaveProperty('level');
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });

  it('refuses an already-expired key, a cap below the allocation and a negative or non-numeric amount: one line on stderr, nothing on stdout, exit 1', async () => {
    const folder = tempDir('admin-cli-refusals-');
    try {
      const orgId = (JSON.parse((await adminIn(folder, 'create-org', '--name', 'Refusals', '--monthly', '100')).stdout) as { id: string }).id;
      const userId = (JSON.parse((await adminIn(folder, 'create-user', '--email', 'owner@refusals.test')).stdout) as { id: string }).id;
      expect((await adminIn(folder, 'add-member', '--org', orgId, '--user', userId, '--role', 'owner')).code).toBe(0);
      const cases: Array<[string[], RegExp]> = [
        [['mint-key', '--org', orgId, '--user', userId, '--expires-at', '2020-01-01T00:00:00Z'], /^error: expires_at 2020-01-01T00:00:00\.000Z is not in the future: the key would be expired before its first use$/],
        [['mint-key', '--org', orgId, '--user', userId, '--expires-at', '1577836800'], /^error: expires_at 2020-01-01T00:00:00\.000Z is not in the future/],
        [['set-allocation', '--org', orgId, '--monthly', '100', '--cap', '50'], /^error: cap 50 is below the monthly allocation 100: each period's top-up would be cut to the cap; give a cap of at least 100, or none$/],
        [['add-credits', '--org', orgId, '--amount', '-5'], /^error: --amount must be a whole number from 1 to 1000000000000, got '-5'$/],
        [['add-credits', '--org', orgId, '--amount', '0'], /^error: --amount must be a whole number from 1 to 1000000000000, got '0'$/],
        [['add-credits', '--org', orgId, '--amount', 'ten'], /^error: --amount must be a whole number from 1 to 1000000000000, got 'ten'$/],
        [['add-credits', '--org', orgId, '--amount', '2.5'], /^error: --amount must be a whole number from 1 to 1000000000000, got '2.5'$/],
        // Past 2^53 - 1 a balance would no longer read back as a number, and the organization's every call would fail.
        [['add-credits', '--org', orgId, '--amount', '99999999999999999999'], /^error: --amount must be a whole number from 1 to 1000000000000, got '99999999999999999999'$/],
        [['add-credits', '--org', orgId, '--amount', '999999999901'], /^error: a balance holds at most 1,000,000,000,000 credits; this one holds 100, so at most 999,999,999,900 can be added$/],
      ];
      for (const [args, reason] of cases) {
        const result = await adminIn(folder, ...args);
        expect(result.code, args.join(' ')).toBe(1);
        expect(result.stdout, args.join(' ')).toBe('');
        expect(result.stderr.trimEnd().split('\n'), args.join(' ')).toHaveLength(1);
        expect(result.stderr.trimEnd(), args.join(' ')).toMatch(reason);
      }
      // Nothing changed: no key minted, the cap and the balance as they were.
      expect(JSON.parse((await adminIn(folder, 'list-keys', '--org', orgId)).stdout)).toEqual([]);
      expect(JSON.parse((await adminIn(folder, 'balance', '--org', orgId)).stdout)).toEqual({ total: 100, subscription: 100, purchased: 0 });
      // A future expiry and a cap at the allocation are fine.
      expect((await adminIn(folder, 'mint-key', '--org', orgId, '--user', userId, '--expires-at', new Date(Date.now() + 86_400_000).toISOString())).code).toBe(0);
      expect((await adminIn(folder, 'set-allocation', '--org', orgId, '--monthly', '100', '--cap', '100')).code).toBe(0);
      // Up to the bound is fine, and the balance still reads.
      expect((await adminIn(folder, 'add-credits', '--org', orgId, '--amount', '999999999900')).code).toBe(0);
      expect(JSON.parse((await adminIn(folder, 'balance', '--org', orgId)).stdout)).toEqual({ total: 1_000_000_000_000, subscription: 100, purchased: 999_999_999_900 });
      expect((await adminIn(folder, 'add-credits', '--org', orgId, '--amount', '1')).code).toBe(1);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('admin CLI against a data folder that is not there', () => {
  it('refuses a DATA_DIR that does not exist (a typo) instead of creating an empty service there', async () => {
    const typo = `${tempDir('admin-cli-parent-')}/no-such-folder`;
    const res = await adminIn(typo, 'create-org', '--name', 'Typo', '--credits', '5');
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`the data folder ${typo} does not exist (DATA_DIR=${typo})`);
    expect(existsSync(typo)).toBe(false);
  });
});
