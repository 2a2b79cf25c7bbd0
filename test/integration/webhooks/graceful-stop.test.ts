import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reloadConfig } from '../../../lambdas/platform/config';
import { startRuntime } from '../../../local/runtime';
import { startFakeTwilio, type FakeTwilio } from '../../support/fake-twilio-lookup';
import { tempDir } from '../../support/temp-dirs';
import { waitFor } from '../../support/wait';
import { startReceiver, type Receiver } from './receiver';

// A graceful stop (Ctrl-C, SIGTERM: the runtime's stop) lets the uploads being processed finish; the
// customer must hear of them then, not at the next start's sweep a minute after a restart that may
// never come. The provider is slow enough that the upload is still processing when the stop begins.

let fake: FakeTwilio;
let receiver: Receiver;
// The environment set below is given back when the file ends (test/support/restore-env.ts).

beforeAll(async () => {
  fake = await startFakeTwilio({ delayMs: () => 15 });
  receiver = await startReceiver();
  Object.assign(process.env, {
    CLASSIFICATION_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: `AC${'0'.repeat(32)}`,
    TWILIO_AUTH_TOKEN: 'secret',
    TWILIO_LOOKUP_BASE_URL: fake.url,
    TWILIO_REQUESTS_PER_SECOND: '500',
    CLASSIFY_CONCURRENCY: '2',
    WEBHOOKS_ALLOW_LOOPBACK: 'true',
    CONTACT_POOL_INTERVAL_MS: '3600000',
  });
  reloadConfig();
});
afterAll(async () => {
  await fake.close();
  await receiver.close();
});

describe('a graceful stop', () => {
  it('sends the upload.completed of an upload it let finish before it returns', async () => {
    const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: tempDir('graceful-stop-'), maxBodyBytes: 1024 * 1024, seedDemo: true });
    const call = (method: string, path: string, body: unknown) =>
      fetch(`${runtime.url}${path}`, { method, headers: { authorization: `Bearer ${runtime.demo!.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await call('POST', '/api/v1/webhooks', { url: receiver.url, events: ['upload.completed'] })).status).toBeLessThan(300);
    const pinged = receiver.requests.length;
    const numbers = Array.from({ length: 200 }, (_, i) => `+1212555${String(3000 + i)}`);
    const created = (await (await call('POST', '/api/v1/uploads', { phone_numbers: numbers })).json()) as { id: string };
    // Processing has started (its chunks are buying lookups), and is far from done.
    await waitFor('lookups under way', async () => (fake.paidTotal() >= 10 ? true : null));
    expect(fake.paidTotal()).toBeLessThan(numbers.length);
    await runtime.stop();
    expect(fake.paidTotal()).toBe(numbers.length);
    const sent = receiver.requests.slice(pinged).map((r) => ({ type: (JSON.parse(r.body) as { type: string }).type, body: r.body }));
    expect(sent.map((e) => e.type)).toEqual(['upload.completed']);
    expect(sent[0]!.body).toContain(created.id);
  });
});
