import { nowIso } from '../platform/clock';
import { setCarrierStatus, type CarrierStatusRecord, type NumberRecord } from './number-repository';
import { putRun, type TestRunRecord } from './run-repository';
import type { SpamWorkItem } from './work-item';

// The two writes of every state of a test (pending, running, completed or failed): the number's
// latest status for the carrier, then the day's history row. Shared by the planner and the workers.

/** The history row an item starts from (the planner writes it `pending`). */
export function plannedRun(n: NumberRecord, item: SpamWorkItem, simulated: boolean): TestRunRecord {
  return {
    test_run_id: item.test_run_id,
    number_id: n.id,
    organization_id: n.organization_id,
    carrier: item.carrier,
    day: item.day,
    status: 'pending',
    tested_at: item.planned_at,
    spam_detected: null,
    spam_label: null,
    sip_response_code: null,
    caller_id_verified: null,
    same_carrier_warning: n.carrier === item.carrier,
    captured_at: null,
    screenshot_key: null,
    screenshot_content_type: null,
    error: null,
    simulated,
  };
}

/** Writes the history row and the number's latest status for this carrier; null when the number is gone. */
export async function recordRun(n: NumberRecord, run: TestRunRecord, extra: { spamFlag?: boolean; ownCarrier?: NumberRecord['carrier']; onSpamEdge?: Record<string, unknown> } = {}) {
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
