import { CARRIERS, HISTORY_WINDOW_MS } from './carriers';
import type { CarrierStatusRecord, NumberRecord } from './number-repository';
import type { TestRunRecord } from './run-repository';

// Stored records → the spec's resource shapes (MonitoredNumber, CarrierStatus, TestRunHistoryItem).

export const screenshotAvailable = (r: Pick<CarrierStatusRecord, 'screenshot_key' | 'captured_at'>, nowMs: number): boolean =>
  Boolean(r.screenshot_key && r.captured_at && Date.parse(r.captured_at) > nowMs - HISTORY_WINDOW_MS);

export function carrierStatusView(r: CarrierStatusRecord, nowMs: number) {
  return {
    carrier: r.carrier,
    status: r.status,
    spam_detected: r.spam_detected,
    spam_label: r.spam_label,
    test_run_id: r.test_run_id,
    captured_at: r.captured_at,
    screenshot_available: screenshotAvailable(r, nowMs),
    same_carrier_warning: r.same_carrier_warning,
    simulated: r.simulated,
  };
}

export function monitoredNumberView(n: NumberRecord, status: 'active' | 'paused', nowMs: number) {
  const statuses = CARRIERS.flatMap((c) => (n.carrier_statuses?.[c] ? [carrierStatusView(n.carrier_statuses[c], nowMs)] : []));
  return {
    id: n.id,
    phone_number: n.phone_number,
    verified: n.verified,
    carrier: n.carrier,
    same_carrier_warning: statuses.some((s) => s.same_carrier_warning),
    status,
    created_at: n.created_at,
    updated_at: n.updated_at,
    carrier_statuses: statuses,
  };
}

export function historyItemView(r: TestRunRecord, nowMs: number) {
  return {
    test_run_id: r.test_run_id,
    carrier: r.carrier,
    status: r.status,
    screenshot_available: screenshotAvailable(r, nowMs),
    tested_at: r.tested_at,
    spam_detected: r.spam_detected,
    spam_label: r.spam_label,
    sip_response_code: r.sip_response_code,
    caller_id_verified: r.caller_id_verified,
    same_carrier_warning: r.same_carrier_warning,
    error: r.status === 'failed' ? r.error : null,
    simulated: r.simulated,
  };
}
