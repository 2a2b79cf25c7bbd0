import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nowIso, nowMs } from '../../../lambdas/platform/clock';
import { reloadConfig } from '../../../lambdas/platform/config';
import { newId } from '../../../lambdas/platform/ids';
import { CARRIERS, dayOf } from '../../../lambdas/spam/carriers';
import type { CarrierTestOutcome, CarrierTestPort, CarrierTestRequest } from '../../../lambdas/spam/carrier-test/port';
import { SimulatedCarrierTests, simulatedVerdict } from '../../../lambdas/spam/carrier-test/simulator';
import { renderCallScreen } from '../../../lambdas/spam/carrier-test/call-screen';
import { runDailySpamTests } from '../../../lambdas/spam/daily-run';
import { getNumber, markVerified, putNumber } from '../../../lambdas/spam/number-repository';
import { listRuns } from '../../../lambdas/spam/run-repository';
import { useTestService } from '../../support/runtime';
import { newOrg } from './helpers';

const service = useTestService();

const SETTINGS = { SPAM_RUN_CONCURRENCY: '64', SPAM_ITEM_ATTEMPTS: '3', SPAM_TEST_TIMEOUT_MS: '2000' };
const saved: Record<string, string | undefined> = {};
beforeAll(() => {
  for (const [k, v] of Object.entries(SETTINGS)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  reloadConfig();
});
afterAll(() => {
  for (const k of Object.keys(SETTINGS)) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  reloadConfig();
});

/** The simulator with a per-test delay, made hostile: some tests throw once, some hang once, some always throw. */
class HostileLab implements CarrierTestPort {
  readonly name = 'hostile-simulator';
  readonly simulated = true;
  readonly calls = new Map<string, number>();
  readonly completed = new Map<string, number>();
  private readonly inner: SimulatedCarrierTests;
  constructor(
    delayMs: number,
    private readonly faults: { throwOnce: Set<string>; hangOnce: Set<string>; alwaysThrow: Set<string> },
  ) {
    // One screenshot for every call: this test is about the fan-out, and drawing hundreds of JPEGs
    // was half its CPU (the pictures are checked in call-screen.test.ts and walkthrough.test.ts).
    let screenshot: Buffer | undefined;
    this.inner = new SimulatedCarrierTests(delayMs, (input) => (screenshot ??= renderCallScreen(input)));
  }
  async runTest(request: CarrierTestRequest): Promise<CarrierTestOutcome> {
    const key = `${request.numberId}|${request.carrier}`;
    const call = (this.calls.get(key) ?? 0) + 1;
    this.calls.set(key, call);
    if (this.faults.alwaysThrow.has(key)) throw new Error('lab: handset offline');
    if (call === 1 && this.faults.throwOnce.has(key)) throw new Error('lab: 503');
    if (call === 1 && this.faults.hangOnce.has(key)) return new Promise<never>(() => undefined);
    const outcome = await this.inner.runTest(request);
    this.completed.set(key, (this.completed.get(key) ?? 0) + 1);
    return outcome;
  }
}

async function addVerifiedDirect(orgId: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  const base = Date.parse('2030-01-01T00:00:00Z');
  for (let i = 0; i < count; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, count - i) }, async (_, j) => {
        const k = i + j;
        const id = newId();
        const createdAt = new Date(base + k * 1000).toISOString();
        await putNumber({
          id,
          organization_id: orgId,
          phone_number: `+1202555${String(k).padStart(4, '0')}`,
          region: 'US',
          line_type: 'mobile',
          sms_capable: true,
          verified: false,
          verified_at: null,
          carrier: null,
          created_at: createdAt,
          updated_at: null,
          verification: { method: 'sms', salt: 'fixture', code_hash: 'x', expires_at: nowMs() + 60_000, attempts: 0, last_sent_at: null, sends: [] },
          carrier_statuses: {},
          spam_state: {},
        });
        if (!(await markVerified(id, 'fixture', nowIso(), createdAt))) throw new Error('fixture number not verified');
        ids[k] = id;
      }),
    );
  }
  return ids;
}

// The case is 2,000 numbers (about 40,000 embedded-table writes: minutes on a loaded
// 2-core machine), run by `npm run test:scale`; the suite runs the same plan, faults and
// assertions over 150 (every fault kind still present: 3 throw-once, 5 hang-once, 1 always-throw),
// so it stays fast.
const NUMBERS = Number(process.env.SPAM_FANOUT_NUMBERS ?? 150);

describe('the daily run fans out one work item per number and carrier', () => {
  it(`${NUMBERS.toLocaleString('en-US')} verified numbers at a per-test delay: every number tested once per carrier, faults retried per item`, async () => {
    const org = await newOrg(`Fan-out ${NUMBERS}`, { included: null });
    const ids = await addVerifiedDirect(org.id, NUMBERS);
    const key = (i: number, c: number) => `${ids[i]}|${CARRIERS[c]}`;
    const faults = {
      throwOnce: new Set(Array.from({ length: Math.floor(NUMBERS / 50) }, (_, i) => key(i * 50, i % 3))),
      hangOnce: new Set(Array.from({ length: 5 }, (_, i) => key(i * Math.floor(NUMBERS / 5) + 7, 1))),
      alwaysThrow: new Set([key(NUMBERS - 1, 2)]),
    };
    const lab = new HostileLab(20, faults);
    const summary = await runDailySpamTests(service.runtime.ports, { port: lab, organizationId: org.id });

    expect(summary.numbers_tested).toBe(NUMBERS);
    expect(summary.work_items).toBe(3 * NUMBERS);
    expect(summary.queued).toBe(0);
    // The simulator's own failure (…0669 on t-mobile) is a lab verdict, recorded without retrying; the always-throwing item fails after its tries.
    const day = dayOf(nowMs());
    const labFailures = ids.filter((_, i) => CARRIERS.some((c) => simulatedVerdict(`+1202555${String(i).padStart(4, '0')}`, c, day) === 'failed')).length;
    expect(labFailures).toBe(NUMBERS > 669 ? 1 : 0);
    expect(summary.tests_failed).toBe(1 + labFailures);
    expect(summary.tests_completed).toBe(3 * NUMBERS - 1 - labFailures);
    // Each number and carrier reached the lab's verdict exactly once, however many tries it took.
    const pairs = ids.flatMap((id) => CARRIERS.map((c) => `${id}|${c}`));
    expect(pairs.filter((p) => !faults.alwaysThrow.has(p) && lab.completed.get(p) !== 1)).toEqual([]);
    for (const p of [...faults.throwOnce, ...faults.hangOnce]) expect(lab.calls.get(p)).toBe(2);
    expect(lab.calls.get([...faults.alwaysThrow][0]!)).toBe(3);

    // What the numbers and their history say: one row per carrier today, completed but for the one that always failed.
    const sample = [0, 7, 50, Math.floor(NUMBERS / 5) + 7, NUMBERS - 1, ...(NUMBERS > 669 ? [669] : [])];
    for (const i of sample) {
      const n = (await getNumber(ids[i]!))!;
      const runs = await listRuns(ids[i]!, nowMs());
      expect(runs.filter((r) => r.day === day).map((r) => r.carrier).sort()).toEqual([...CARRIERS]);
      for (const c of CARRIERS) {
        const labFailed = simulatedVerdict(n.phone_number, c, day) === 'failed';
        const expected = faults.alwaysThrow.has(`${ids[i]}|${c}`) || labFailed ? 'failed' : 'completed';
        expect(n.carrier_statuses[c]?.status).toBe(expected);
        expect(runs.find((r) => r.carrier === c)?.status).toBe(expected);
      }
    }
    const failed = (await listRuns(ids[NUMBERS - 1]!, nowMs())).find((r) => r.carrier === CARRIERS[2])!;
    expect(failed.error).toBe('lab: handset offline');
  }, 900_000);
});
