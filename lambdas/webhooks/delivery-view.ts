import type { DeliveryRecord } from './delivery-repository';

/** The spec's WebhookDelivery (GET /api/v1/webhooks/{id}/deliveries), with when an owner last sent it again. */
export interface WebhookDelivery {
  id: string;
  webhook_id: string;
  event_id: string;
  event_type: string;
  state: DeliveryRecord['state'];
  attempt_count: number;
  attempts: DeliveryRecord['attempts'];
  next_attempt_at: string | null;
  exhausted_reason: string | null;
  redelivered_at: string | null;
  created_at: string;
  updated_at: string;
}

export function toPublicDelivery(d: DeliveryRecord): WebhookDelivery {
  return {
    id: d.id,
    webhook_id: d.webhook_id ?? '',
    event_id: d.event_id,
    event_type: d.event_type,
    state: d.state,
    attempt_count: d.attempt_count,
    attempts: d.attempts,
    next_attempt_at: d.next_attempt_at ?? null,
    exhausted_reason: d.exhausted_reason ?? null,
    redelivered_at: d.redelivered_at ?? null,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}
