import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime, type ChildRuntime } from '../../support/child-runtime';
import { bundledEntry } from '../../support/bundled-entry';

const run = promisify(execFile);

/** `npm run admin -- run-contact-pool` next to a running `npm start` whose own pool timer is off. */
describe('admin run-contact-pool', () => {
  let runtime: ChildRuntime;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = freshDataDir();
    runtime = await startChildRuntime(dataDir, { CONTACT_POOL_INTERVAL_MS: '3600000', LOCAL_RECOVERY_INTERVAL_MS: '3600000' });
  }, 60_000);
  afterAll(async () => {
    await killAllChildRuntimes();
  });

  const admin = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' } });
    return JSON.parse(stdout) as { pooled: number; uploads: string[] };
  };
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${runtime.url}${path}`, { method, headers: { authorization: `Bearer ${runtime.apiKey}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });

  it('pools queued contacts now and processes them; two at once pool each contact once', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await call('POST', '/api/v2/contacts', { phone: `+1212555${String(2600 + i)}` });
      expect(res.status).toBe(201);
      ids.push(((await res.json()) as { id: string }).id);
    }
    // Two operators (or an operator and the schedule) at once: the lease lets one run pool.
    const [a, b] = await Promise.all([admin('run-contact-pool'), admin('run-contact-pool')]);
    expect(a.pooled + b.pooled).toBe(6);
    expect([a.pooled, b.pooled].sort()).toEqual([0, 6]);
    for (const id of ids) {
      const contact = (await (await call('GET', `/api/v2/contacts/${id}`)).json()) as { status: string };
      expect(contact.status).toBe('completed');
    }
    // Nothing left to pool.
    expect((await admin('run-contact-pool')).pooled).toBe(0);
  }, 120_000);
});
