import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../support/bundled-entry';

const run = promisify(execFile);
const dataDir = mkdtempSync(join(tmpdir(), 'admin-cli-'));
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
      const folder = mkdtempSync(join(tmpdir(), 'admin-cli-bad-'));
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
