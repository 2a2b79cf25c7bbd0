import type * as z from '../platform/zod';
import { nowIso } from '../platform/clock';
import { API_VERSION, newEventId, type EventEnvelope, type EventType } from './envelope';

// One schema per event type, owned by the feature that raises it (uploads/upload-events.ts,
// contacts/contact-events.ts, spam/spam-events.ts, webhooks/ping.ts): its builder is typed by it
// (buildEvent), and the OpenAPI `webhooks` section and docs describe the same schema
// (api/event-schemas.ts), so the payload a receiver gets and the one documented cannot part.

export interface EventDefinition<T extends EventType = EventType, D extends Record<string, unknown> = Record<string, unknown>> {
  type: T;
  summary: string;
  description: string;
  /** The event's `data`. */
  data: z.ZodMiniType<D>;
}

export const defineEvent = <T extends EventType, D extends Record<string, unknown>>(definition: EventDefinition<T, D>): EventDefinition<T, D> => definition;

/** The `data` an event definition types. */
export type EventData<E> = E extends EventDefinition<EventType, infer D> ? D : never;

/** An event of `definition`'s type, its data typed by the definition's schema. */
export function buildEvent<T extends EventType, D extends Record<string, unknown>>(definition: EventDefinition<T, D>, data: NoInfer<D>, id?: string): EventEnvelope {
  return { id: id ?? newEventId(), type: definition.type, api_version: API_VERSION, created_at: nowIso(), data };
}
