import { getOrganization } from '../auth/identity-repository';
import { nowIso, nowMs } from '../platform/clock';
import { config } from '../platform/config';
import { newId } from '../platform/ids';
import { CARRIERS, dayOf } from './carriers';
import { effectiveLimit, inLimitIds } from './limits';
import { listOrgNumbers, verifiedNumbers, type NumberRecord } from './number-repository';
import { plannedRun, recordRun } from './run-record';
import type { SpamWorkItem } from './work-item';

// The daily run's first half: which numbers are tested today (every verified number of an
// organization with an active subscription, the oldest up to its limit), each carrier's row
// written `pending`, and one work item per number and carrier for the workers (fan-out).

export interface RunSummary {
  day: string;
  organizations: number;
  skipped_organizations: number;
  numbers_tested: number;
  numbers_beyond_limit: number;
  /** Number-and-carrier tests planned. */
  work_items: number;
  /** Of them, sent to the fan-out queue (AWS): their results arrive later, from its consumer. */
  queued: number;
  /** The counts below cover work items tested in this process (0 when they were queued). */
  tests_completed: number;
  tests_failed: number;
  spam_detected_events: number;
  simulated: boolean;
}

export async function planDailyRun(options: { simulated: boolean; organizationId?: string }): Promise<{ summary: RunSummary; items: SpamWorkItem[] }> {
  const day = dayOf(nowMs());
  const byOrg = new Map<string, NumberRecord[]>();
  for await (const n of verifiedNumbers()) {
    if (options.organizationId && n.organization_id !== options.organizationId) continue;
    const list = byOrg.get(n.organization_id);
    if (list) list.push(n);
    else byOrg.set(n.organization_id, [n]);
  }
  const summary: RunSummary = {
    day,
    organizations: 0,
    skipped_organizations: 0,
    numbers_tested: 0,
    numbers_beyond_limit: 0,
    work_items: 0,
    queued: 0,
    tests_completed: 0,
    tests_failed: 0,
    spam_detected_events: 0,
    simulated: options.simulated,
  };
  const numbers: NumberRecord[] = [];
  for (const [orgId, verified] of byOrg) {
    const org = await getOrganization(orgId);
    // Spam monitoring needs an active subscription; numbers are kept while it lapses.
    if (!org || !org.subscription_active) {
      summary.skipped_organizations++;
      continue;
    }
    summary.organizations++;
    const limit = effectiveLimit(org);
    const inLimit = inLimitIds(limit === null ? verified : await listOrgNumbers(orgId, limit), limit);
    for (const n of verified) {
      if (inLimit.has(n.id)) numbers.push(n);
      else summary.numbers_beyond_limit++;
    }
  }
  const items = await planItems(numbers, day, options.simulated);
  summary.numbers_tested = new Set(items.map((i) => i.number_id)).size;
  summary.work_items = items.length;
  return { summary, items };
}

/**
 * Writes each number's day rows as `pending` (what the API shows until its test runs) and returns
 * one work item per number and carrier. A number deleted meanwhile gets none.
 */
async function planItems(numbers: NumberRecord[], day: string, simulated: boolean): Promise<SpamWorkItem[]> {
  const planned: SpamWorkItem[][] = new Array<SpamWorkItem[]>(numbers.length);
  let next = 0;
  const worker = async () => {
    while (next < numbers.length) {
      const index = next++;
      const n = numbers[index]!;
      const items: SpamWorkItem[] = [];
      for (const carrier of CARRIERS) {
        const item: SpamWorkItem = { test_run_id: newId(), number_id: n.id, carrier, day, planned_at: nowIso() };
        if (!(await recordRun(n, plannedRun(n, item, simulated)))) break; // deleted meanwhile
        items.push(item);
      }
      planned[index] = items.length === CARRIERS.length ? items : [];
    }
  };
  // Planning only writes rows; a few writers at once keep a large run's planning short.
  await Promise.all(Array.from({ length: Math.max(1, Math.min(config().SPAM_RUN_CONCURRENCY, numbers.length)) }, worker));
  return planned.flat();
}
