import { nowIso, nowMs } from '../platform/clock';
import { InvalidInput } from '../platform/domain-errors';
import { randomHex } from '../platform/ids';
import * as z from '../platform/zod';
import type { EventEnvelope } from './envelope';
import { buildEvent, defineEvent } from './event-definition';
import { createDelivery } from './delivery-repository';
import { deliveryIdFor } from './fan-out';
import { sendSigned } from './send';
import type { OutboundNet } from '../platform/net/outbound';

export const WEBHOOK_PING = defineEvent({
  type: 'webhook.ping',
  summary: 'Sent once at registration and when an endpoint’s URL changes',
  description: 'Answer 2xx within 10 seconds; the endpoint is saved (or the URL changed) only then. Never re-sent.',
  data: z.lazySchema(() => z.object({ challenge: z.string() })),
});

export interface PingResult {
  event: EventEnvelope;
  deliveryId: string;
  attemptedAt: string;
  statusCode: number;
}

/**
 * The synchronous `webhook.ping` of registration and URL change: one signed attempt, no retry.
 * Throws the spec's 400 `ping_failed` unless the receiver answers 2xx.
 */
export async function pingOrThrow(net: OutboundNet, url: string, secret: string): Promise<PingResult> {
  const event = buildEvent(WEBHOOK_PING, { challenge: randomHex(16) });
  const deliveryId = deliveryIdFor(event.id, 'ping');
  const attemptedAt = new Date(nowMs()).toISOString();
  const outcome = await sendSigned(net, { url, secret, body: JSON.stringify(event), eventType: event.type, eventId: event.id, deliveryId, attempt: 1 });
  if (!outcome.ok) {
    const message =
      outcome.statusCode !== null
        ? `The webhook.ping to the URL was answered ${outcome.statusCode}; the endpoint must answer 2xx`
        : outcome.unsafe
          ? `The webhook.ping was not sent: ${outcome.error}`
          : `The webhook.ping to the URL did not complete: ${outcome.error}`;
    throw new InvalidInput({ error: 'ping_failed', message, status_code: outcome.statusCode, underlying_error: outcome.statusCode === null ? outcome.error : null });
  }
  return { event, deliveryId, attemptedAt, statusCode: outcome.statusCode! };
}

/** Puts a verified ping in the endpoint's deliveries log (it is delivered already: succeeded). */
export async function recordPing(organizationId: string, webhookId: string, ping: PingResult): Promise<void> {
  const at = nowIso();
  await createDelivery({
    id: ping.deliveryId,
    organization_id: organizationId,
    kind: 'webhook',
    webhook_id: webhookId,
    callback_url: null,
    callback_secret: null,
    event_id: ping.event.id,
    event_type: ping.event.type,
    body: JSON.stringify(ping.event),
    state: 'succeeded',
    attempt_count: 1,
    attempts: [{ attempt: 1, attempted_at: ping.attemptedAt, status_code: ping.statusCode, error: null }],
    next_attempt_at: null,
    exhausted_reason: null,
    lease_until: null,
    created_at: ping.attemptedAt,
    updated_at: at,
  });
}
