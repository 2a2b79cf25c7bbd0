import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import type { HeaderSpec } from '../platform/http/route-spec';
import type { WebhookEventSpec } from '../platform/openapi';
import { API_VERSION, type EventType } from '../webhooks/envelope';
import type { EventDefinition } from '../webhooks/events';
import { UPLOAD_COMPLETED, UPLOAD_CREATED, UPLOAD_FAILED } from '../uploads/upload-events';
import { CONTACT_COMPLETED, CONTACT_FAILED } from '../contacts/contact-events';
import { NUMBER_VERIFIED, SPAM_DETECTED } from '../spam/spam-events';
import { WEBHOOK_PING } from '../webhooks/ping';

// The body of every event the service delivers, for the OpenAPI 3.1 `webhooks` section: the
// envelope (webhooks/envelope.ts) with each type's `data` schema, the same definition its builder
// is typed by (uploads/upload-events.ts, contacts/contact-events.ts, spam/spam-events.ts,
// webhooks/ping.ts; webhooks/event-definition.ts). test/unit/platform/event-schemas.test.ts holds
// each to what those builders produce at run time.

const DEFINITIONS: EventDefinition[] = [UPLOAD_CREATED, UPLOAD_COMPLETED, UPLOAD_FAILED, CONTACT_COMPLETED, CONTACT_FAILED, SPAM_DETECTED, NUMBER_VERIFIED, WEBHOOK_PING];
const DATA = Object.fromEntries(DEFINITIONS.map((d) => [d.type, d])) as Record<EventType, EventDefinition>;

/** The delivered body of one event type: the envelope with its data. */
export function eventSchema(type: EventType): z.ZodMiniType {
  return z.object({
    id: z.string().check(z.regex(/^evt_[0-9a-f]+$/), z.describe('the event id; receivers de-duplicate on it')),
    type: z.literal(type),
    api_version: z.literal(API_VERSION),
    created_at: timestamp,
    data: DATA[type].data,
  });
}

const text = (description: string, required = true): HeaderSpec => ({ description, required, schema: z.string() });

/** Headers of every delivery (spec, Events: delivery headers). */
export const DELIVERY_HEADERS: Record<string, HeaderSpec> = {
  'User-Agent': text('`Service-Webhooks/1.0`'),
  'X-Service-Signature': text('`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed with the endpoint’s secret (the callback_secret for per-contact callbacks)'),
  'X-Service-Event': text('the event type, as body.type'),
  'X-Service-Event-Id': text('the event id, as body.id'),
  'X-Service-Delivery-Id': text('one id for every attempt of this delivery'),
  'X-Service-Attempt': text('1-based attempt counter'),
  'X-Service-Timestamp': text('the Unix seconds used in the signature'),
};

export const WEBHOOK_EVENTS: WebhookEventSpec[] = (Object.keys(DATA) as EventType[]).map((type) => ({
  type,
  summary: DATA[type].summary,
  description: DATA[type].description,
  schema: eventSchema(type),
  headers: DELIVERY_HEADERS,
}));
