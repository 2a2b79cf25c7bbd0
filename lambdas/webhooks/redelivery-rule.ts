import type { DeliveryRecord } from './delivery-repository';

export type RedeliveryDecision = { kind: 'reopen' } | { kind: 'under_way' } | { kind: 'refused'; reason: string };

/**
 * Whether an owner's "send again" reopens a delivery (lambdas/webhooks/redeliver.ts). Only a
 * delivery that ended without success is sent again; one already reopened and not yet attempted
 * (a double click, a retried request) is the same request, answered as it stands.
 */
export function redeliveryDecision(delivery: Pick<DeliveryRecord, 'state' | 'final_attempt' | 'attempt_count'>, endpoint: { is_active: boolean }): RedeliveryDecision {
  if (delivery.state === 'succeeded') return { kind: 'refused', reason: 'This delivery succeeded; there is nothing to send again' };
  if (delivery.state === 'pending') {
    if (delivery.final_attempt != null && delivery.attempt_count < delivery.final_attempt) return { kind: 'under_way' };
    return { kind: 'refused', reason: 'This delivery is still being retried; it can be sent again once it has ended' };
  }
  if (!endpoint.is_active) return { kind: 'refused', reason: 'This endpoint is disabled; enable it before sending a delivery again' };
  return { kind: 'reopen' };
}
