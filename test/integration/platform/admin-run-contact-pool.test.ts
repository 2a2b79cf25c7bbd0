import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime, type ChildRuntime } from '../../support/child-runtime';
import { bundledEntry } from '../../support/bundled-entry';
import { startReceiver } from '../webhooks/receiver';

const run = promisify(execFile);

/** `npm run admin -- run-contact-pool` next to a running `npm start` whose own pool timer is off. */
describe('admin run-contact-pool', () => {
  let runtime: ChildRuntime;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = freshDataDir();
    // Loopback webhooks allowed in the instance only: the CLI's jobs must run with its settings.
    runtime = await startChildRuntime(dataDir, { CONTACT_POOL_INTERVAL_MS: '3600000', LOCAL_RECOVERY_INTERVAL_MS: '3600000', WEBHOOKS_ALLOW_LOOPBACK: 'true' });
  });
  afterAll(async () => {
    await killAllChildRuntimes();
  });

  const admin = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], {
      env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR', WEBHOOKS_ALLOW_LOOPBACK: 'false' },
    });
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
  });

  it("runs with the instance's settings: a loopback receiver gets the pooled contact's event on the first attempt", async () => {
    const receiver = await startReceiver();
    try {
      const created = await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['contact.completed'] });
      expect(created.status).toBe(201);
      const webhook = ((await created.json()) as { webhook: { id: string } }).webhook;
      const queued = await call('POST', '/api/v2/contacts', { phone: '+12125552700' });
      expect(queued.status).toBe(201);
      const contactId = ((await queued.json()) as { id: string }).id;
      expect((await admin('run-contact-pool')).pooled).toBe(1);
      await receiver.waitFor(2); // the verification ping, then the contact's event
      const event = receiver.requests.map((r) => JSON.parse(r.body) as { type: string; data: { contact?: { id: string; status: string } } }).find((e) => e.type === 'contact.completed');
      expect(event?.data.contact).toMatchObject({ id: contactId, status: 'completed' });
      // Delivered by the CLI's run on its first attempt: no failure recorded against the endpoint.
      const after = (await (await call('GET', `/api/v1/webhooks/${webhook.id}`)).json()) as { consecutive_failures: number; is_active: boolean };
      expect(after).toMatchObject({ consecutive_failures: 0, is_active: true });
    } finally {
      await receiver.close();
    }
  });
});
