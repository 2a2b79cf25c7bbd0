import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { nowIso } from '../platform/clock';
import { randomHex } from '../platform/ids';
import { db, tableName } from '../platform/table';

// The one module every feature emits events through. An event is recorded in the table first, so
// none is lost whatever happens to delivery afterwards.

export const API_VERSION = '2026-04-23';

export const EVENT_TYPES = [
  'upload.created',
  'upload.completed',
  'upload.failed',
  'contact.completed',
  'contact.failed',
  'spam.detected',
  'number.verified',
  'webhook.ping',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventEnvelope {
  id: string;
  type: EventType;
  api_version: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const newEventId = (): string => `evt_${randomHex(16)}`;

export async function emitEvent(input: { organizationId: string; type: EventType; data: Record<string, unknown> }): Promise<EventEnvelope> {
  const event: EventEnvelope = { id: newEventId(), type: input.type, api_version: API_VERSION, created_at: nowIso(), data: input.data };
  await db().send(
    new PutCommand({
      TableName: tableName(),
      Item: {
        pk: `EVENT#${event.id}`,
        sk: 'META',
        entity: 'Event',
        gsi1pk: `ORG#${input.organizationId}#EVENTS`,
        gsi1sk: `${event.created_at}#${event.id}`,
        organization_id: input.organizationId,
        ...event,
      },
    }),
  );
  return event;
}
