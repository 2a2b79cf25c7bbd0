import { getOrganization } from '../auth/identity-repository';
import { buildEvent } from '../events/events';
import { flushOutbox, outboxFields } from '../events/outbox';
import { nowIso, nowMs } from '../platform/clock';
import { newId, sha256Hex } from '../platform/ids';
import { logger } from '../platform/logger';
import { CARRIERS, dayOf, type Carrier } from './carriers';
import type { CarrierTestOutcome } from './carrier-test/port';
import { isSpamTransition } from './edge-trigger';
import { effectiveLimit, inLimitIds } from './limits';
import { listOrgNumbers, numberItemKey, setCarrierStatus, verifiedNumbers, type CarrierStatusRecord, type NumberRecord } from './number-repository';
import { claimScheduledDay, putRun, type TestRunRecord } from './run-repository';
import { putScreenshot, screenshotKey } from './screenshots';
import { config } from '../platform/config';
import type { SpamPorts } from './ports';
import { awsSpamPorts } from '../composition/aws';

// The daily spam test run (EventBridge Scheduler in AWS; a timer and `admin spam-run` locally):
// every verified number within its organization's limit, on each carrier, through the configured
// carrier-test adapter. Safe to run more than once a day: a day's row per carrier is overwritten
// and spam.detected fires only on a clean → spam change.

export interface RunSummary {
  day: string;
  organizations: number;
  skipped_organizations: number;
  numbers_tested: number;
  numbers_beyond_limit: number;
  tests_completed: number;
  tests_failed: number;
  spam_detected_events: number;
  simulated: boolean;
}



export async function runDailySpamTests(ports: SpamPorts, options: { organizationId?: string } = {}): Promise<RunSummary> {
  const port = ports.carrierTests;
  const day = dayOf(nowMs());
  const byOrg = new Map<string, NumberRecord[]>();
  for await (const n of verifiedNumbers()) {
    if (options.organizationId && n.organization_id !== options.organizationId) continue;
    byOrg.set(n.organization_id, [...(byOrg.get(n.organization_id) ?? []), n]);
  }
  const summary: RunSummary = {
    day,
    organizations: 0,
    skipped_organizations: 0,
    numbers_tested: 0,
    numbers_beyond_limit: 0,
    tests_completed: 0,
    tests_failed: 0,
    spam_detected_events: 0,
    simulated: port.simulated,
  };
  const work: NumberRecord[] = [];
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
      if (inLimit.has(n.id)) work.push(n);
      else summary.numbers_beyond_limit++;
    }
  }
  await eachLimited(work, config().SPAM_RUN_CONCURRENCY, async (n) => {
    const results = await testNumber(ports, n, day);
    summary.numbers_tested++;
    for (const r of results) {
      if (r.status === 'completed') summary.tests_completed++;
      else summary.tests_failed++;
      if (r.alerted) summary.spam_detected_events++;
    }
  });
  logger.info('spam test run', { ...summary });
  return summary;
}

/** Runs the day's tests once (the local timer's entry): a second call on the same day does nothing. */
export async function runScheduledSpamTests(ports: SpamPorts): Promise<RunSummary | null> {
  if (!(await claimScheduledDay(dayOf(nowMs()), nowIso()))) return null;
  return runDailySpamTests(ports);
}

async function testNumber(ports: SpamPorts, n: NumberRecord, day: string): Promise<{ status: 'completed' | 'failed'; alerted: boolean }[]> {
  const runs = new Map<Carrier, TestRunRecord>();
  for (const carrier of CARRIERS) {
    const run: TestRunRecord = {
      test_run_id: newId(),
      number_id: n.id,
      organization_id: n.organization_id,
      carrier,
      day,
      status: 'pending',
      tested_at: nowIso(),
      spam_detected: null,
      spam_label: null,
      sip_response_code: null,
      caller_id_verified: null,
      same_carrier_warning: n.carrier === carrier,
      captured_at: null,
      screenshot_key: null,
      screenshot_content_type: null,
      error: null,
      simulated: ports.carrierTests.simulated,
    };
    runs.set(carrier, run);
    if (!(await record(n, run))) return []; // deleted meanwhile: no further tests
  }
  return Promise.all(CARRIERS.map((carrier) => testCarrier(ports, n, runs.get(carrier)!)));
}

async function testCarrier(ports: SpamPorts, n: NumberRecord, pending: TestRunRecord): Promise<{ status: 'completed' | 'failed'; alerted: boolean }> {
  const port = ports.carrierTests;
  const running: TestRunRecord = { ...pending, status: 'running' };
  if (!(await record(n, running))) return { status: 'failed', alerted: false };
  let outcome: CarrierTestOutcome;
  try {
    outcome = await port.runTest({ testRunId: running.test_run_id, numberId: n.id, phoneNumber: n.phone_number, carrier: running.carrier, day: running.day });
  } catch (error) {
    outcome = { status: 'failed', spam_detected: null, spam_label: null, sip_response_code: null, caller_id_verified: null, originating_carrier: null, screenshot: null, captured_at: null, error: (error as Error).message, simulated: port.simulated };
  }
  const ownCarrier = n.carrier ?? outcome.originating_carrier;
  const done: TestRunRecord & { status: 'completed' | 'failed' } = {
    ...running,
    status: outcome.status,
    spam_detected: outcome.status === 'completed' ? outcome.spam_detected : null,
    spam_label: outcome.status === 'completed' ? outcome.spam_label : null,
    sip_response_code: outcome.sip_response_code,
    caller_id_verified: outcome.caller_id_verified,
    same_carrier_warning: ownCarrier === running.carrier,
    captured_at: outcome.captured_at,
    error: outcome.error,
    simulated: outcome.simulated,
  };
  if (outcome.screenshot) {
    const key = screenshotKey(n.organization_id, n.id, running.day, running.carrier, outcome.screenshot.contentType);
    try {
      await putScreenshot(key, outcome.screenshot.bytes, outcome.screenshot.contentType);
      done.screenshot_key = key;
      done.screenshot_content_type = outcome.screenshot.contentType;
      done.captured_at ??= nowIso();
    } catch (error) {
      // The label still counts without its picture.
      logger.error('screenshot upload failed', { number_id: n.id, carrier: running.carrier, error: error as Error });
    }
  }
  const flag = done.status === 'completed' && done.spam_detected !== null ? done.spam_detected : undefined;
  // The event is prepared for every flagged result and written only if the write turns out to be
  // the clean → spam edge (one conditional write: number-repository setCarrierStatus).
  const key = numberItemKey(n.id);
  const onSpamEdge = flag === true ? outboxFields(key, [{ organization_id: n.organization_id, event: spamDetectedEvent(n, done) }], nowIso()) : undefined;
  const previous = await record(n, done, { spamFlag: flag, ownCarrier: n.carrier ? null : outcome.originating_carrier, onSpamEdge });
  if (!previous) return { status: done.status, alerted: false };
  const alerted = isSpamTransition(previous.previousFlag, done);
  if (alerted) await flushOutbox(ports, key);
  return { status: done.status, alerted };
}

function spamDetectedEvent(n: NumberRecord, done: TestRunRecord) {
  return buildEvent({
    type: 'spam.detected',
    // Stable per test, so a re-published event is the same event for receivers that de-duplicate.
    id: `evt_${sha256Hex(`spam.detected:${done.test_run_id}`).slice(0, 32)}`,
    data: {
      number_id: n.id,
      phone_number: n.phone_number,
      carrier: done.carrier,
      spam_label: done.spam_label,
      sip_response_code: done.sip_response_code,
      caller_id_verified: done.caller_id_verified,
      same_carrier_warning: done.same_carrier_warning,
      test_run_id: done.test_run_id,
      screenshot_available: done.screenshot_key !== null,
      detected_at: done.captured_at ?? done.tested_at,
    },
  });
}

/** Writes the history row and the number's latest status for this carrier. */
async function record(n: NumberRecord, run: TestRunRecord, extra: { spamFlag?: boolean; ownCarrier?: Carrier | null; onSpamEdge?: Record<string, unknown> } = {}) {
  const status: CarrierStatusRecord = {
    carrier: run.carrier,
    status: run.status,
    spam_detected: run.spam_detected,
    spam_label: run.spam_label,
    test_run_id: run.test_run_id,
    tested_at: run.tested_at,
    captured_at: run.captured_at,
    screenshot_key: run.screenshot_key,
    screenshot_content_type: run.screenshot_content_type,
    same_carrier_warning: run.same_carrier_warning,
    simulated: run.simulated,
  };
  const previous = await setCarrierStatus(n.id, status, nowIso(), extra);
  if (previous) await putRun(run);
  return previous;
}

async function eachLimited<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const workers = Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, async () => {
    while (next < items.length) {
      const item = items[next++]!;
      try {
        await fn(item);
      } catch (error) {
        // One number's failure must not stop the others; tomorrow's run tries again.
        logger.error('spam test of a number failed', { number_id: (item as { id?: string }).id, error: error as Error });
      }
    }
  });
  await Promise.all(workers);
}

/** EventBridge Scheduler target, wired by the AWS composition root. */
export const handler = async () => runDailySpamTests(awsSpamPorts());
