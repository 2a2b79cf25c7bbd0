import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRuntime } from '../../../local/runtime';
import { getDelivery, pendingDeliveriesByDue } from '../../../lambdas/webhooks/delivery-repository';
import { emitEvent } from '../../support/emit-event';
import { manualClock } from '../../support/manual-clock';
import { tempDir } from '../../support/temp-dirs';
import { startReceiver, type Receiver } from './receiver';

// The local delivery queue's timers do not outlive their process; the records do. A retry a stopped
// runtime had waiting is armed again at the next start, for its own due time, instead of waiting
// for a sweep that takes only deliveries a minute overdue (up to two minutes late per restart).
// The sweeper is kept out of it here (an hour between sweeps): only the armed timer can deliver.

let receiver: Receiver;
// The environment set below is given back when the file ends (test/support/restore-env.ts).

beforeAll(async () => {
  receiver = await startReceiver();
  Object.assign(process.env, { WEBHOOKS_ALLOW_LOOPBACK: 'true', CONTACT_POOL_INTERVAL_MS: '3600000', LOCAL_WEBHOOK_SWEEP_INTERVAL_MS: '3600000' });
});
afterAll(async () => {
  await receiver.close();
});

describe('webhook retries across a local restart', () => {
  it('a retry left waiting by a stopped runtime is attempted at its due time after the next start', async () => {
    const dataDir = tempDir('restart-retries-');
    const clock = manualClock();
    const start = () => startRuntime({ port: 0, host: '127.0.0.1', dataDir, maxBodyBytes: 1024 * 1024, seedDemo: true, clock });
    const first = await start();
    const organizationId = first.demo!.organizationId;
    const registered = await fetch(`${first.url}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${first.demo!.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: receiver.url, events: ['upload.completed'] }),
    });
    expect(registered.status).toBeLessThan(300);
    const before = receiver.requests.length;
    receiver.mode = { kind: 'status', status: 503 };
    const event = await clock.run(() => emitEvent(first.ports, { organizationId, type: 'upload.completed', data: { upload: { id: 'restart-retry' } } }));
    await receiver.waitFor(before + 1);
    // Refused once: a retry a minute later, waiting in this process's timer.
    const pending = await clock.run(async () => {
      for (;;) {
        const found: { id: string; dueAtMs: number }[] = [];
        for await (const d of pendingDeliveriesByDue()) found.push(d);
        const delivery = found.length ? await getDelivery(found[0]!.id) : null;
        if (delivery?.attempts.length === 1 && delivery.state === 'pending') return found;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    expect(pending).toHaveLength(1);
    await first.stop();

    // Started again a second before that retry is due (the clock moved on while it was stopped).
    const dueAtMs = pending[0]!.dueAtMs;
    const offset = dueAtMs - 1000 - Date.now();
    clock.set(() => Date.now() + offset);
    receiver.mode = { kind: 'status', status: 200 };
    const second = await start();
    try {
      await receiver.waitFor(before + 2);
      const retried = receiver.requests[before + 1]!;
      expect(JSON.parse(retried.body)).toMatchObject({ id: event.id, type: 'upload.completed' });
      // Not before it was due.
      expect(clock.nowMs()).toBeGreaterThanOrEqual(dueAtMs);
    } finally {
      await second.stop();
      clock.set(null);
    }
  });
});
