import { nowIso } from '../../lambdas/platform/clock';
import { API_VERSION, newEventId, publishEvent, type EventEnvelope, type EventType } from '../../lambdas/webhooks/events';
import type { DeliveryPorts } from '../../lambdas/webhooks/delivery-queue-port';

/**
 * An event published at once, as a feature's outbox publishes it after its write (the service
 * itself always goes through the outbox: buildEvent, outboxFields, flushOutbox).
 */
export async function emitEvent(ports: DeliveryPorts, input: { organizationId: string; type: EventType; data: Record<string, unknown>; id?: string }): Promise<EventEnvelope> {
  // Any data a test needs, so not through a feature's typed definition.
  const event: EventEnvelope = { id: input.id ?? newEventId(), type: input.type, api_version: API_VERSION, created_at: nowIso(), data: input.data };
  await publishEvent(ports, input.organizationId, event);
  return event;
}
