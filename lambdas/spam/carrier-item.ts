import { setTimeout as sleep } from 'node:timers/promises';
import { buildEvent } from '../webhooks/events';
import { SPAM_DETECTED } from './spam-events';
import { flushOutbox, outboxFields } from '../webhooks/outbox';
import { nowIso } from '../platform/clock';
import { sha256Hex } from '../platform/ids';
import { logger } from '../platform/logger';
import type { CarrierTestOutcome, CarrierTestPort } from './carrier-test/port';
import { isSpamTransition } from './edge-trigger';
import { getNumber, numberItemKey, type NumberRecord } from './number-repository';
import type { TestRunRecord } from './run-repository';
import { plannedRun, recordRun } from './run-record';
import { putScreenshot, screenshotKey } from './screenshots';
import { parseWorkItem, type SpamWorkItem } from './work-item';
import type { SpamTestPorts } from './ports';
import { config } from '../platform/config';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';

export type ItemResult = { status: 'completed' | 'failed'; alerted: boolean } | { status: 'skipped'; alerted: false };

export interface ItemOptions {
  /** On the last try a thrown or timed-out test is recorded `failed`; before it, it is thrown to be retried. */
  finalAttempt: boolean;
  timeoutMs: number;
}

/**
 * Tests one number on one carrier and records the result. Re-reads the number, so a number deleted
 * or unverified since planning is skipped. A test that throws or outlasts `timeoutMs` is thrown
 * (the queue redelivers it) unless this is the final attempt, when it is recorded `failed`.
 */
export async function runWorkItem(ports: DeliveryPorts, item: SpamWorkItem, port: CarrierTestPort, options: ItemOptions): Promise<ItemResult> {
  const n = await getNumber(item.number_id);
  if (!n || !n.verified) return { status: 'skipped', alerted: false };
  const running: TestRunRecord = { ...plannedRun(n, item, port.simulated), status: 'running', tested_at: nowIso() };
  if (!(await recordRun(n, running))) return { status: 'skipped', alerted: false };
  let outcome: CarrierTestOutcome;
  try {
    outcome = await withTimeout(port.runTest({ testRunId: running.test_run_id, numberId: n.id, phoneNumber: n.phone_number, carrier: running.carrier, day: running.day }), options.timeoutMs);
  } catch (error) {
    if (!options.finalAttempt) throw error;
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
  const previous = await recordRun(n, done, { spamFlag: flag, ownCarrier: n.carrier ? null : outcome.originating_carrier, onSpamEdge });
  if (!previous) return { status: done.status, alerted: false };
  const alerted = isSpamTransition(previous.previousFlag, done);
  if (alerted) await flushOutbox(ports, key);
  return { status: done.status, alerted };
}

async function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  const abort = new AbortController();
  try {
    return await Promise.race([work, sleep(ms, undefined, { signal: abort.signal }).then(() => Promise.reject(new Error(`carrier test took longer than ${ms} ms`)))]);
  } finally {
    abort.abort();
  }
}

function spamDetectedEvent(n: NumberRecord, done: TestRunRecord) {
  return buildEvent(
    SPAM_DETECTED,
    {
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
    // Stable per test, so a re-published event is the same event for receivers that de-duplicate.
    `evt_${sha256Hex(`spam.detected:${done.test_run_id}`).slice(0, 32)}`,
  );
}

/**
 * One message of the daily run's fan-out queue, on its `receives`-th receive: on the last one
 * (SPAM_ITEM_ATTEMPTS) a failure is recorded on the number instead of thrown for SQS to retry.
 */
export async function runQueuedWorkItem(ports: SpamTestPorts, body: string, receives: number): Promise<void> {
  const { SPAM_ITEM_ATTEMPTS: attempts, SPAM_TEST_TIMEOUT_MS: timeoutMs } = config();
  await runWorkItem(ports, parseWorkItem(body), ports.carrierTests, { finalAttempt: receives >= attempts, timeoutMs });
}
