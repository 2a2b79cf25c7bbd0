import { ENDPOINT_DELETED, type DeliveryRecord, type DeliveryState } from './delivery-repository';

// What an on-call engineer reads about one delivery attempt: how loud the line is and which keys it
// carries. A plain rule, so the level of each outcome is tested without a receiver.
//
// Levels: a success is INFO; a failure that will be retried is WARN (the chain is still working);
// a delivery given up (its attempts exhausted, a 410 Gone, a redelivery's one attempt failed, or
// ended unsent because its endpoint is disabled or its secret does not open) is ERROR, since its
// event is lost for that receiver and never replayed. An endpoint the customer deleted ends its
// deliveries on purpose (spec): INFO.
//
// Keys say what they are about: `delivery_state` is the delivery's state after the attempt (never
// `state`, which reads as the upload's or contact's state), `http_status` the receiver's answer
// (absent when none came back), `error` the network error, `next_attempt_at` when the next
// attempt is due (absent when there is none), `gave_up_because` why a delivery ended unsuccessfully.

export type LogLevelName = 'info' | 'warn' | 'error';

export interface AttemptLogEntry {
  level: LogLevelName;
  message: string;
  fields: Record<string, unknown>;
}

type About = Pick<DeliveryRecord, 'id' | 'kind' | 'webhook_id' | 'organization_id' | 'event_id' | 'event_type'>;

const about = (record: About): Record<string, unknown> => ({
  delivery_id: record.id,
  delivery_kind: record.kind,
  webhook_id: record.webhook_id,
  organization_id: record.organization_id,
  event_id: record.event_id,
  event_type: record.event_type,
});

/** Why a delivery whose attempt failed ends now instead of being retried. */
function gaveUpBecause(attempt: { attempt: number; maxAttempts: number; statusCode: number | null; finalAttempt: boolean }): string {
  if (attempt.statusCode === 410) return 'receiver answered 410 Gone';
  if (attempt.finalAttempt) return 'redelivery attempt failed';
  return `all ${attempt.maxAttempts} attempts failed`;
}

/** The line for an attempt that was made and recorded. */
export function attemptLogEntry(
  record: About,
  attempt: { attempt: number; maxAttempts: number; state: DeliveryState; statusCode: number | null; error: string | null; nextAttemptAt: string | null; finalAttempt: boolean },
): AttemptLogEntry {
  const fields = {
    ...about(record),
    attempt: attempt.attempt,
    max_attempts: attempt.maxAttempts,
    http_status: attempt.statusCode,
    error: attempt.error,
    delivery_state: attempt.state,
  };
  if (attempt.state === 'succeeded') return { level: 'info', message: 'webhook delivery attempt succeeded', fields };
  if (attempt.state === 'pending') {
    return { level: 'warn', message: 'webhook delivery attempt failed, will retry', fields: { ...fields, next_attempt_at: attempt.nextAttemptAt } };
  }
  return { level: 'error', message: 'webhook delivery gave up', fields: { ...fields, gave_up_because: gaveUpBecause(attempt) } };
}

/** The line for a delivery ended without an attempt (its target is gone, off, or cannot be signed for). */
export function skippedLogEntry(record: About, reason: string, attemptsMade: number): AttemptLogEntry {
  const fields = { ...about(record), attempts_made: attemptsMade, delivery_state: 'exhausted', gave_up_because: reason };
  if (reason === ENDPOINT_DELETED) return { level: 'info', message: 'webhook delivery ended: endpoint deleted', fields };
  return { level: 'error', message: 'webhook delivery gave up', fields };
}
