import { startRuntime } from '../local/runtime';
import { mapConcurrent } from '../lambdas/classification/resilience';

/**
 * The contacts write path against the per-key limit (600/min). Phase 1: 700 creates with one key,
 * 20 in flight: every one must get 201 or 429, never another error, and the sustained rate is
 * reported next to the limit. Phase 2, right after: a burst of 300 more writes on the same key,
 * which the nearly empty bucket must mostly refuse with 429.
 */
export async function runContactsBench(): Promise<Record<string, number>> {
  process.env.CONTACT_POOL_INTERVAL_MS = '3600000';
  const runtime = await startRuntime({ port: 0, host: '127.0.0.1', dataDir: null, maxBodyBytes: 10 * 1024 * 1024, seedDemo: true });
  const headers = { authorization: `Bearer ${runtime.demo!.apiKey}`, 'content-type': 'application/json' };
  const post = async (body: unknown) => {
    const res = await fetch(`${runtime.url}/api/v1/contacts`, { method: 'POST', headers, body: JSON.stringify(body) });
    await res.arrayBuffer();
    return res.status;
  };
  try {
    const started = performance.now();
    const phase1 = await mapConcurrent(Array.from({ length: 700 }, (_, i) => i), 20, (i) => post({ phone: `+1212${String(2000000 + i)}` }));
    const minutes = (performance.now() - started) / 60_000;
    const phase2 = await Promise.all(Array.from({ length: 300 }, (_, i) => post({ phone: `+1415${String(2000000 + i)}` })));
    const count = (xs: number[], s: number) => xs.filter((x) => x === s).length;
    return {
      contacts_sent: phase1.length,
      contacts_created: count(phase1, 201),
      contacts_429: count(phase1, 429),
      contacts_other_errors: phase1.length - count(phase1, 201) - count(phase1, 429),
      contacts_per_min: Math.round(count(phase1, 201) / minutes),
      contacts_per_min_vs_limit: Number((count(phase1, 201) / minutes / 600).toFixed(2)),
      contacts_burst_after_429: count(phase2, 429),
      contacts_burst_after_other_errors: phase2.length - count(phase2, 201) - count(phase2, 429),
    };
  } finally {
    await runtime.stop();
  }
}
