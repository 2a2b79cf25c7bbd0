import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, expect, it } from 'vitest';
import * as admin from '../../lambdas/admin/admin';
import { claimPhone, reserveSlotFor } from '../../lambdas/spam/number-repository';
import { freePortPair, randomPortBelowEphemeralRange } from '../../local/free-port-pair';
import { startRuntime, type Runtime } from '../../local/runtime';
import { tempDir } from '../support/temp-dirs';

// npm start recovers what the previous process left before its API accepts a connection: a client
// that polls the port and sends its request the moment it answers never meets a half-recovered
// store (here, phones still claimed by adds that were killed: 409 instead of 201).

let running: Runtime | null = null;
afterEach(async () => {
  await running?.stop();
  running = null;
});

const start = (dataDir: string, port: number) => startRuntime({ port, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: false });

it('the first request a restarted instance answers finds the slots and phones of killed adds given back', async () => {
  const dataDir = tempDir('recovery-before-serving-');
  const port = (await freePortPair('127.0.0.1', randomPortBelowEphemeralRange()))!;
  running = await start(dataDir, port);
  const org = await admin.createOrganization({ name: 'Killed adds', credits: 0, subscriptionActive: true });
  const user = await admin.createUser(`owner-${org.id}@example.test`);
  await admin.addMember(org.id, user.id, 'owner');
  const { key } = await admin.mintKey(org.id, user.id);
  await admin.setSpamLimit(org.id, 400, 0);
  // What adds killed after their slot and phone leave (before this process started, as after a
  // kill -9): enough of them that recovering them takes a while.
  const phones = Array.from({ length: 300 }, (_, i) => `+1202318${String(2000 + i)}`);
  const at = Date.now() - 10 * 60_000;
  for (const phone of phones) {
    const numberId = randomUUID();
    expect(await reserveSlotFor(org.id, 400, { numberId, phone, at })).toBe(true);
    expect(await claimPhone(org.id, phone, numberId)).toBe(true);
  }
  await running.stop();
  running = null;

  const restarted = start(dataDir, port);
  let first: Response | null = null;
  while (!first) {
    first = await fetch(`http://127.0.0.1:${port}/api/v1/spam/numbers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone_number: phones[phones.length - 1] }),
    }).catch(() => null);
    if (!first) await sleep(2);
  }
  running = await restarted;
  expect([first.status, await first.text()]).toEqual([201, expect.stringContaining(phones[phones.length - 1]!)]);
}, 120_000);
