import { nowIso, nowMs } from '../platform/clock';
import { sha256Hex } from '../platform/ids';
import type { EventEnvelope } from './envelope';
import { enqueueDelivery } from './delivery-queue';
import type { DeliveryPorts } from './delivery-queue-port';
import { createDelivery, type DeliveryRecord } from './delivery-repository';
import { listEndpoints } from './endpoint-repository';
import type { StoredSecret } from './secret-sealer';

/** What deliveryIdFor makes. */
export const DELIVERY_ID = /^dlv_[0-9a-f]{32}$/;

/**
 * Delivery ids are derived from the event and the receiver, so emitting the same event again
 * (a retried step) creates no second delivery to the same receiver.
 */
export const deliveryIdFor = (eventId: string, receiver: string): string => `dlv_${sha256Hex(`${eventId}|${receiver}`).slice(0, 32)}`;

function newDelivery(
  organizationId: string,
  event: EventEnvelope,
  target: Pick<DeliveryRecord, 'kind' | 'webhook_id' | 'callback_url' | 'callback_secret'>,
  id: string,
): DeliveryRecord {
  const at = nowIso();
  return {
    id,
    organization_id: organizationId,
    ...target,
    event_id: event.id,
    event_type: event.type,
    body: JSON.stringify(event),
    state: 'pending',
    attempt_count: 0,
    attempts: [],
    next_attempt_at: at,
    exhausted_reason: null,
    lease_until: null,
    created_at: at,
    updated_at: at,
  };
}

/** One delivery per active endpoint of the organization subscribed to the event's type. */
export async function fanOutToEndpoints(ports: DeliveryPorts, organizationId: string, event: EventEnvelope): Promise<string[]> {
  const endpoints = (await listEndpoints(organizationId)).filter((e) => e.is_active && e.events.includes(event.type));
  const ids: string[] = [];
  for (const endpoint of endpoints) {
    const id = deliveryIdFor(event.id, `webhook:${endpoint.id}`);
    const record = newDelivery(organizationId, event, { kind: 'webhook', webhook_id: endpoint.id, callback_url: null, callback_secret: null }, id);
    if (await createDelivery(record)) await enqueueDelivery(ports.deliveryQueue, id, nowMs());
    ids.push(id);
  }
  return ids;
}

/**
 * A per-contact callback: the same signed POST, headers and retry chain as a webhook delivery,
 * keyed by the callback secret, under the same URL-safety rules (checked again at every attempt).
 * The secret stays as stored (sealed): only the attempt opens it. Returns the delivery id.
 */
export async function enqueueCallback(ports: DeliveryPorts, input: { organizationId: string; url: string; secret: StoredSecret; event: EventEnvelope }): Promise<string> {
  const id = deliveryIdFor(input.event.id, `callback:${input.url}`);
  const record = newDelivery(input.organizationId, input.event, { kind: 'callback', webhook_id: null, callback_url: input.url, callback_secret: input.secret }, id);
  if (await createDelivery(record)) await enqueueDelivery(ports.deliveryQueue, id, nowMs());
  return id;
}
