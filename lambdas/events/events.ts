import { nowIso } from '../platform/clock';
import { insertItem } from '../platform/table';
import { fanOutToEndpoints } from '../webhooks/fan-out';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { API_VERSION, newEventId, toStoredEvent, type EventEnvelope, type EventType } from './envelope';

// The one module every feature emits events through. An event is recorded in the table first,
// then one delivery record per subscribed active endpoint, then a queue message per delivery; a
// lost message is found by the sweeper, so nothing after the event record depends on the queue.

export { API_VERSION, DEFAULT_EVENT_TYPES, EVENT_TYPES, newEventId, SUBSCRIBABLE_EVENT_TYPES } from './envelope';
export type { EventEnvelope, EventType } from './envelope';
export { enqueueCallback } from '../webhooks/fan-out';

export async function emitEvent(ports: DeliveryPorts, input: {
  organizationId: string;
  type: EventType;
  data: Record<string, unknown>;
  /** Optional stable id (e.g. derived from the upload and its outcome) so a retried step re-emits the same event. */
  id?: string;
}): Promise<EventEnvelope> {
  const event = buildEvent(input);
  await publishEvent(ports, input.organizationId, event);
  return event;
}

export function buildEvent(input: { type: EventType; data: Record<string, unknown>; id?: string }): EventEnvelope {
  return { id: input.id ?? newEventId(), type: input.type, api_version: API_VERSION, created_at: nowIso(), data: input.data };
}

/** Records the event (once: a second publication keeps the first record) and fans it out. */
export async function publishEvent(ports: DeliveryPorts, organizationId: string, event: EventEnvelope): Promise<void> {
  await insertItem('Event', {
    pk: `EVENT#${event.id}`,
    sk: 'META',
    gsi1pk: `ORG#${organizationId}#EVENTS`,
    gsi1sk: `${event.created_at}#${event.id}`,
    organization_id: organizationId,
    ...toStoredEvent(event),
  });
  await fanOutToEndpoints(ports, organizationId, event);
}
