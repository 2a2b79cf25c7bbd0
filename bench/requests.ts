import { startRuntime } from '../local/runtime';
import { db } from '../lambdas/platform/table';

const REQUESTS = 40;

/**
 * DynamoDB calls per request, counted by a middleware on the SDK client the service uses: the mean
 * over 40 balance reads and 40 contact creates (with and without an idempotency key) after one
 * request of each kind has warmed the process, as a warm Lambda container serves them.
 */
export async function runRequestsBench(): Promise<Record<string, number>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 10 * 1024 * 1024, seedDemo: true });
  let calls = 0;
  db().middlewareStack.add((next) => (args) => {
    calls++;
    return next(args);
  }, { step: 'initialize', name: 'benchCallCounter' });
  const headers = { authorization: `Bearer ${runtime.demo!.apiKey}`, 'content-type': 'application/json' };
  const measure = async (request: (i: number) => Promise<Response>, expected: number) => {
    const warm = await request(-1);
    if (warm.status !== expected) throw new Error(`answered ${warm.status}: ${await warm.text()}`);
    const before = calls;
    for (let i = 0; i < REQUESTS; i++) {
      const res = await request(i);
      await res.arrayBuffer();
      if (res.status !== expected) throw new Error(`answered ${res.status}`);
    }
    return Number(((calls - before) / REQUESTS).toFixed(2));
  };
  try {
    const balance = await measure(() => fetch(`${runtime.url}/api/v1/credits/balance`, { headers }), 200);
    const contact = await measure((i) => fetch(`${runtime.url}/api/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ phone: `+1212${String(3000000 + i + 1)}` }) }), 201);
    const idempotent = await measure(
      (i) => fetch(`${runtime.url}/api/v1/contacts`, { method: 'POST', headers, body: JSON.stringify({ phone: `+1415${String(3000000 + i + 1)}`, idempotency_key: `bench-${i}` }) }),
      201,
    );
    return { ddb_calls_balance: balance, ddb_calls_contact_create: contact, ddb_calls_contact_create_idempotent: idempotent };
  } finally {
    await runtime.stop();
  }
}
