import { insertItem } from '../platform/table';
import { fanOutToEndpoints } from './fan-out';
import type { DeliveryPorts } from './delivery-queue-port';
import { toStoredEvent, type EventEnvelope } from './envelope';

// Events: a feature builds one (buildEvent), writes it into its own item's outbox with the change
// that raises it (outbox.ts), then publishes it: the event is recorded in the table first, then one
// delivery record per subscribed active endpoint, then a queue message per delivery; a lost message
// is found by the sweeper, so nothing after the event record depends on the queue.

export { API_VERSION, DEFAULT_EVENT_TYPES, EVENT_TYPES, newEventId, SUBSCRIBABLE_EVENT_TYPES } from './envelope';
export type { EventEnvelope, EventType } from './envelope';
export { enqueueCallback } from './fan-out';
export { buildEvent, defineEvent, type EventData, type EventDefinition } from './event-definition';


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
