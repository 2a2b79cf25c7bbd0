import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AWS_LIMITS } from '../../../local/api-gateway-server';
import { startRuntime, type Runtime } from '../../../local/runtime';
import { newCustomer } from '../../support/customer';
import { dribbleBody, firstAnswer, rawClient, type RawClient } from '../../support/raw-client';
import { waitFor } from '../../support/wait';

// Issue 29: two connections declaring a 10 MB body and sending a byte every few hundred
// milliseconds took the whole in-flight body budget, and every organization's writes waited until
// they timed out (300 s). The whole runtime at API Gateway's 10 MB limit, with the API's own key
// check (lambdas/auth) deciding whose budget a body counts against. The minimum rate's window is
// long here so the slow connections stay open for the whole test; its cut is tested in
// local-api-bodies.test.ts.
const MB = 1024 * 1024;
let runtime: Runtime;
let port: number;
const open: RawClient[] = [];

beforeAll(async () => {
  process.env.TABLE_NAME = `test-${Math.random().toString(36).slice(2, 10)}`;
  process.env.CONTACT_POOL_INTERVAL_MS ??= '3600000';
  process.env.LOCAL_RECOVERY_INTERVAL_MS ??= '3600000';
  runtime = await startRuntime({
    port: 0,
    host: '127.0.0.1',
    dataDir: null,
    maxBodyBytes: AWS_LIMITS.httpApiBodyBytes,
    seedDemo: true,
    bodies: { minBodyRate: { bytesPerSecond: 1, windowMs: 600_000 }, overLimitDiscard: { bytes: 128 * MB, ms: 600_000 } },
  });
  port = Number(new URL(runtime.url).port);
});
afterAll(async () => {
  for (const client of open) client.socket.destroy();
  await runtime?.stop();
});

const slowCreate = (authorization: string | null): RawClient => {
  const client = rawClient(port, `POST /api/v2/contacts HTTP/1.1\r\nHost: x\r\n${authorization ? `Authorization: ${authorization}\r\n` : ''}Content-Type: application/json\r\nContent-Length: ${10 * MB}\r\n\r\n`);
  open.push(client);
  dribbleBody(client, 300);
  return client;
};

describe('a fair body budget', () => {
  it("one organization's slow uploads and slow requests without a key never delay another organization's writes", async () => {
    const slowTenant = await newCustomer();
    const slowOwn = [slowCreate(`Bearer ${slowTenant.key}`), slowCreate(`Bearer ${slowTenant.key}`)];
    const slowAnonymous = [slowCreate(null), slowCreate(null)];

    // The slow organization's two bodies are being read, holding its whole budget (2 × 10 MB).
    await waitFor('the slow organization holding its budget', () => (runtime.bodyBudgets.inUse(slowTenant.org.id) === 20 * MB ? true : null), 60_000, 20);
    // Those without a key were answered 401 before their bodies were read: they hold nothing.
    for (const client of slowAnonymous) {
      const answer = await waitFor('the 401', () => firstAnswer(client.received()), 60_000, 20);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ detail: 'API key required' });
    }
    expect(runtime.bodyBudgets.inUse(null)).toBe(0);

    // Another organization's contact creates complete while all four are still open.
    const creates = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        fetch(`${runtime.url}/api/v2/contacts`, {
          method: 'POST',
          headers: { authorization: `Bearer ${runtime.demo!.apiKey}`, 'content-type': 'application/json' },
          body: JSON.stringify({ phone: `+1 415 555 ${String(3100 + i)}`, validation_tier: 'STANDARD' }),
        }),
      ),
    );
    expect(creates.map((r) => r.status)).toEqual([201, 201, 201, 201, 201]);
    for (const client of [...slowOwn, ...slowAnonymous]) expect(client.socket.destroyed).toBe(false);
    for (const client of slowOwn) expect(client.received()).toBe('');
    expect(runtime.bodyBudgets.inUse(slowTenant.org.id)).toBe(20 * MB);

    // The slow organization's own next write waits for its budget, and goes once its slow ones are gone.
    const next = fetch(`${runtime.url}/api/v2/contacts`, {
      method: 'POST',
      headers: { authorization: `Bearer ${slowTenant.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '+1 415 555 3199', validation_tier: 'STANDARD' }),
    });
    await waitFor('its next write queued behind its own budget', () => (runtime.bodyBudgets.queued(slowTenant.org.id) === 1 ? true : null), 60_000, 20);
    for (const client of slowOwn) client.socket.destroy();
    const answered = await next;
    // Read and answered by the handler: the new customer has no credits.
    expect(answered.status).toBe(402);
    expect(((await answered.json()) as { detail: string }).detail).toMatch(/^Insufficient credits/);
    await waitFor('the budget released', () => (runtime.bodyBudgets.inUse() === 0 ? true : null), 60_000, 20);
  });
});
