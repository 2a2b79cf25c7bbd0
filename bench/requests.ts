import { startRuntime } from '../local/runtime';
import { db } from '../lambdas/platform/table';
import { runWithClock } from '../lambdas/platform/clock';
import { authenticate } from '../lambdas/auth/authenticate';
import { forgetPrincipals, PRINCIPAL_CACHE_MS, principals } from '../lambdas/auth/principal-cache';
import { forgetKeyUses, LAST_USED_RESOLUTION_MS } from '../lambdas/auth/key-usage';

const REQUESTS = 40;

/** Every cached principal as if its 15 s had run out: what a container finds when its key cache is cold. */
function expirePrincipals(): void {
  for (const entry of principals.values()) entry.at -= PRINCIPAL_CACHE_MS;
}

/**
 * DynamoDB calls per request, counted by a middleware on the SDK client the service uses: the mean
 * over 40 balance reads and 40 contact creates of each kind (standard and max, with and without an
 * idempotency key), after one request of each kind has warmed the process, as a warm Lambda
 * container serves them; the same creates with the key cache cold; and authentication alone,
 * warm, cold (the cached entry expired) and at a container's first sight of a key, with the key's
 * use due each time (the clock moved past the minute between authentications). The key's
 * last-use write, once a minute per key and container, is in the authentication figures only.
 */
export async function runRequestsBench(): Promise<Record<string, number>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 10 * 1024 * 1024, seedDemo: true });
  let calls = 0;
  db().middlewareStack.add((next) => (args) => {
    calls++;
    return next(args);
  }, { step: 'initialize', name: 'benchCallCounter' });
  const apiKey = runtime.demo!.apiKey;
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const measure = async (request: (i: number) => Promise<Response>, expected: number, before: () => void = () => undefined) => {
    // The warm-up records the key's last use afresh, so the key's once-a-minute use write (counted in
    // ddb_calls_auth_*) does not land in a set by the wall clock (a set takes seconds).
    forgetKeyUses();
    const warm = await request(-1);
    if (warm.status !== expected) throw new Error(`answered ${warm.status}: ${await warm.text()}`);
    let counted = 0;
    for (let i = 0; i < REQUESTS; i++) {
      before();
      const start = calls;
      const res = await request(i);
      await res.arrayBuffer();
      counted += calls - start;
      if (res.status !== expected) throw new Error(`answered ${res.status}`);
    }
    return Number((counted / REQUESTS).toFixed(2));
  };
  const create = (prefix: string, body: (i: number) => Record<string, unknown>) => (i: number) =>
    fetch(`${runtime.url}/api/v2/contacts`, { method: 'POST', headers, body: JSON.stringify({ phone: `+1${prefix}${String(3000000 + i + 1)}`, ...body(i) }) });

  /** Calls of one authentication, the mean of 40, the clock moved on by `stepMs` before each (it never goes back). */
  let offset = 0;
  const authCalls = async (stepMs: number, before: () => void): Promise<number> => {
    let counted = 0;
    for (let i = 0; i < REQUESTS; i++) {
      offset += stepMs;
      before();
      const start = calls;
      await runWithClock({ nowMs: () => Date.now() + offset }, () => authenticate(`Bearer ${apiKey}`));
      counted += calls - start;
    }
    return Number((counted / REQUESTS).toFixed(2));
  };
  try {
    const balance = await measure(() => fetch(`${runtime.url}/api/v1/credits/balance`, { headers }), 200);
    const contact = await measure(create('212', () => ({})), 201);
    const idempotent = await measure(create('415', (i) => ({ idempotency_key: `bench-${i}` })), 201);
    const maxPlain = await measure(create('646', () => ({ validation_tier: 'max' })), 201);
    const maxIdempotent = await measure(create('718', (i) => ({ validation_tier: 'max', idempotency_key: `bench-max-${i}` })), 201);
    const contactCold = await measure(create('917', () => ({})), 201, expirePrincipals);
    const maxIdempotentCold = await measure(create('347', (i) => ({ validation_tier: 'max', idempotency_key: `bench-max-cold-${i}` })), 201, expirePrincipals);

    const authWarm = await authCalls(0, () => undefined);
    const authCold = await authCalls(LAST_USED_RESOLUTION_MS + 1, expirePrincipals);
    const authFirstSight = await authCalls(LAST_USED_RESOLUTION_MS + 1, () => {
      forgetPrincipals();
      forgetKeyUses();
    });
    // The one case of 3: another container recorded the key's use within the minute before this one first saw the key.
    const authFirstSightRecent = await authCalls(0, () => {
      forgetPrincipals();
      forgetKeyUses();
    });
    return {
      ddb_calls_balance: balance,
      ddb_calls_contact_create: contact,
      ddb_calls_contact_create_idempotent: idempotent,
      ddb_calls_contact_create_max: maxPlain,
      ddb_calls_contact_create_max_idempotent: maxIdempotent,
      ddb_calls_contact_create_auth_cold: contactCold,
      ddb_calls_contact_create_max_idempotent_auth_cold: maxIdempotentCold,
      ddb_calls_auth_warm: authWarm,
      ddb_calls_auth_cold: Math.max(authCold, authFirstSight),
      ddb_calls_auth_cold_expired_entry: authCold,
      ddb_calls_auth_cold_first_sight: authFirstSight,
      ddb_calls_auth_first_sight_used_elsewhere: authFirstSightRecent,
    };
  } finally {
    await runtime.stop();
  }
}
