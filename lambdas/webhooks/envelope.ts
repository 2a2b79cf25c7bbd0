import { randomHex } from '../platform/ids';
import { fromJsonText, toJsonText } from '../platform/json-text';

// The event envelope and vocabulary, apart from emitEvent so that delivery code can use them
// without importing the emitter (which imports delivery code).

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

/** Types an endpoint may subscribe to; webhook.ping is sent only at registration and URL change. */
export const SUBSCRIBABLE_EVENT_TYPES = EVENT_TYPES.filter((t) => t !== 'webhook.ping') as Exclude<EventType, 'webhook.ping'>[];

export const DEFAULT_EVENT_TYPES: EventType[] = ['upload.completed', 'upload.failed'];

export interface EventEnvelope {
  id: string;
  type: EventType;
  api_version: string;
  created_at: string;
  data: Record<string, unknown>;
}

export const newEventId = (): string => `evt_${randomHex(16)}`;

/**
 * An envelope as the table keeps it (event records, outbox entries): its `data` as JSON text, since
 * it can carry customer keys (a contact's properties) the document client cannot store as a map
 * (platform/json-text.ts).
 */
export type StoredEventEnvelope = Omit<EventEnvelope, 'data'> & { data: string };

export const toStoredEvent = (event: EventEnvelope): StoredEventEnvelope => ({ ...event, data: toJsonText(event.data) });

/** The envelope back; `data` is a map in what was stored before. */
export const fromStoredEvent = (stored: StoredEventEnvelope | EventEnvelope): EventEnvelope => ({ ...stored, data: fromJsonText<Record<string, unknown>>(stored.data) });
