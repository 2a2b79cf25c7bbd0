import { nowIso, nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { attemptLogEntry, skippedLogEntry, type AttemptLogEntry } from './attempt-log';
import { disableEndpoint, getEndpoint, recordEndpointFailure, recordEndpointSuccess } from './endpoint-repository';
import { enqueueDelivery, type DeliveryPorts } from './delivery-queue';
import { claimAttempt, ENDPOINT_DELETED, getDelivery, markExhausted, recordAttempt, type DeliveryRecord, type DeliveryState } from './delivery-repository';
import { publishAutoDisabledMetric } from './metrics';
import { AUTO_DISABLE_AFTER_FAILURES, isPermanentFailure, MAX_ATTEMPTS, nextAttemptAtMs } from './retry-policy';
import { sendSigned } from './send';
import { config } from '../platform/config';
import { crashPoint } from '../platform/crash-point';
import { callbackSecretContext, openStored, SecretUnopenable, webhookSecretContext, type OpenPorts } from './secret-sealer';


export type ProcessResult =
  | { kind: 'gone' } // no such delivery, or already final
  | { kind: 'not_due'; dueAtMs: number }
  | { kind: 'busy' } // another worker holds this attempt
  | { kind: 'skipped'; reason: string } // ended without an attempt
  | { kind: 'attempted'; attempt: number; state: DeliveryState; statusCode: number | null; error: string | null };

/**
 * Makes the next attempt of one delivery if it is due: the one code path behind the SQS consumer,
 * the local queue and the sweeper. Safe to call any number of times for the same delivery.
 */
export async function processDelivery(ports: DeliveryPorts & OpenPorts, deliveryId: string): Promise<ProcessResult> {
  const record = await getDelivery(deliveryId);
  if (!record || record.state !== 'pending' || !record.next_attempt_at) return { kind: 'gone' };
  const dueAtMs = Date.parse(record.next_attempt_at);
  const startedMs = nowMs();
  if (dueAtMs > startedMs) return { kind: 'not_due', dueAtMs };
  // Longer than one attempt can take (10 s timeout plus table writes); a dead worker's lease lapses.
  if (!(await claimAttempt(record, startedMs, config().WEBHOOK_ATTEMPT_LEASE_MS))) return { kind: 'busy' };

  const target = await resolveTarget(ports, record);
  if ('skip' in target) {
    await markExhausted(record.id, target.skip, nowIso());
    writeLog(skippedLogEntry(record, target.skip, record.attempt_count));
    return { kind: 'skipped', reason: target.skip };
  }

  const attemptNo = record.attempt_count + 1;
  const attemptedAt = new Date(startedMs).toISOString();
  const outcome = await sendSigned(ports.net, {
    url: target.url,
    secret: target.secret,
    body: record.body,
    eventType: record.event_type,
    eventId: record.event_id,
    deliveryId: record.id,
    attempt: attemptNo,
  });

  // Sent, not yet recorded: a crash here makes the sweeper send it again (at least once, same event id).
  crashPoint('webhook.after-send');
  // A redelivery is one attempt: it ends the delivery whatever the answer.
  const lastAsked = record.final_attempt != null && attemptNo >= record.final_attempt;
  const nextMs = outcome.ok || isPermanentFailure(outcome.statusCode) || lastAsked ? null : nextAttemptAtMs(attemptNo, startedMs);
  const state: DeliveryState = outcome.ok ? 'succeeded' : nextMs === null ? 'exhausted' : 'pending';
  const nextAt = nextMs === null ? null : new Date(nextMs).toISOString();
  const recorded = await recordAttempt(
    record,
    { attempt: attemptNo, attempted_at: attemptedAt, status_code: outcome.statusCode, error: outcome.error },
    { state, next_attempt_at: nextAt },
    nowIso(),
  );
  if (!recorded) {
    // The delivery changed under us (endpoint deleted, or a lapsed lease let another worker in).
    return { kind: 'busy' };
  }
  writeLog(attemptLogEntry(record, {
    attempt: attemptNo,
    maxAttempts: MAX_ATTEMPTS,
    state,
    statusCode: outcome.statusCode,
    error: outcome.error,
    nextAttemptAt: nextAt,
    finalAttempt: lastAsked,
  }));

  if (record.kind === 'webhook' && record.webhook_id) await countOutcome(record.webhook_id, outcome.ok);
  if (nextMs !== null) await enqueueDelivery(ports.deliveryQueue, record.id, nextMs);
  return { kind: 'attempted', attempt: attemptNo, state, statusCode: outcome.statusCode, error: outcome.error };
}

const writeLog = (entry: AttemptLogEntry): void => logger[entry.level](entry.message, entry.fields);

async function resolveTarget(ports: OpenPorts, record: DeliveryRecord): Promise<{ url: string; secret: string } | { skip: string }> {
  if (record.kind === 'callback') {
    if (!record.callback_url || !record.callback_secret) return { skip: 'callback has no url or secret' };
    return withSecret(record.callback_url, () => openStored(ports, record.callback_secret!, callbackSecretContext(record.organization_id, record.callback_url!)));
  }
  const endpoint = record.webhook_id ? await getEndpoint(record.webhook_id) : null;
  if (!endpoint) return { skip: ENDPOINT_DELETED };
  if (!endpoint.is_active) return { skip: 'endpoint inactive' };
  return withSecret(endpoint.url, () => openStored(ports, endpoint.secret, webhookSecretContext(endpoint.organization_id, endpoint.id)));
}

/**
 * A secret that can never open (altered, or moved to another organization, endpoint or URL) ends the
 * delivery unsigned and unsent; a KMS outage or throttling throws, and the lapsed lease retries it.
 */
async function withSecret(url: string, open: () => Promise<string>): Promise<{ url: string; secret: string } | { skip: string }> {
  try {
    return { url, secret: await open() };
  } catch (error) {
    if (!(error instanceof SecretUnopenable)) throw error;
    logger.error('webhook secret does not open', { error });
    return { skip: 'signing secret could not be opened' };
  }
}

/** Spec: every failed attempt counts, success resets, 20 in a row disable the endpoint. */
async function countOutcome(webhookId: string, ok: boolean): Promise<void> {
  const at = nowIso();
  if (ok) return recordEndpointSuccess(webhookId, at);
  const counted = await recordEndpointFailure(webhookId, at);
  if (counted && counted.is_active && counted.consecutive_failures >= AUTO_DISABLE_AFTER_FAILURES) {
    if (await disableEndpoint(webhookId, at, AUTO_DISABLE_AFTER_FAILURES)) {
      // The endpoint's deliveries are given up from now on: an ERROR, as each of those is.
      logger.error('webhook endpoint auto-disabled', { webhook_id: webhookId, consecutive_failures: counted.consecutive_failures });
      publishAutoDisabledMetric();
    }
  }
}

/**
 * One message of the delivery queue. A message that arrives before its attempt is due (waits over
 * SQS's 15-minute delay limit) is sent on with the rest of the wait.
 */
export async function deliverQueuedMessage(ports: DeliveryPorts & OpenPorts, body: string): Promise<void> {
  const message = JSON.parse(body) as { delivery_id?: unknown };
  if (typeof message.delivery_id !== 'string') throw new Error('message has no delivery_id');
  const result = await processDelivery(ports, message.delivery_id);
  if (result.kind === 'not_due') await enqueueDelivery(ports.deliveryQueue, message.delivery_id, result.dueAtMs);
}
