import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import type { HeaderSpec } from '../platform/http/route-spec';
import type { WebhookEventSpec } from '../platform/openapi';
import { API_VERSION, type EventType } from '../webhooks/envelope';
import { ContactEventContact } from '../contacts/routes';
import { Upload } from '../uploads/routes';
import { CarrierStatus } from '../spam/routes';

// The body of every event the service delivers, for the OpenAPI 3.1 `webhooks` section: the
// envelope (webhooks/envelope.ts) with each type's `data`, as the code that builds it
// (uploads/create-upload.ts, uploads/pipeline/announce.ts, contacts/outcomes.ts,
// spam/carrier-item.ts, spam/numbers.ts, webhooks/ping.ts) writes it. test/unit/platform/
// event-schemas.test.ts holds each to what those builders produce.

const count = z.nullable(z.number().check(z.int()));
const uploadStatus = Upload.shape.status;
const uploadSource = Upload.shape.source;

const uploadCreated = z.object({
  id: z.string().check(z.uuid()),
  source: uploadSource,
  status: z.literal('ready_for_processing'),
  original_filename: z.string(),
  total_rows: count.check(z.describe('everything submitted; on multi-column uploads total_rows minus valid_row_count is not an invalid count')),
  valid_row_count: count,
  valid_number_count: count,
  organization_id: z.nullable(z.string().check(z.uuid())),
  created_at: timestamp,
});

const uploadOutcome = {
  id: z.string().check(z.uuid()),
  source: uploadSource,
  status: uploadStatus,
  original_filename: z.string(),
  valid_row_count: count,
  valid_number_count: count,
  invalid_row_count: count,
  organization_id: z.nullable(z.string().check(z.uuid())),
  created_at: timestamp,
};

const Downloads = z.object({
  processed: z.string().check(z.describe('signed link to the processed file, valid one hour')),
  processed_filtered: z.string().check(z.describe('signed link to the deprecated filtered file, valid one hour')),
});

const DATA: Record<EventType, { summary: string; description: string; data: z.ZodMiniType }> = {
  'upload.created': { summary: 'An upload was created (API and web)', description: 'No download links.', data: z.object({ upload: uploadCreated }) },
  'upload.completed': {
    summary: 'An upload finished processing',
    description: 'With signed links to the processed files, each valid one hour from the state change; GET the download endpoints for fresh ones.',
    data: z.object({ upload: z.object({ ...uploadOutcome, downloads: Downloads }) }),
  },
  'upload.failed': {
    summary: 'An upload failed',
    description: 'Its credits are refunded.',
    data: z.object({ upload: z.object({ ...uploadOutcome, downloads: z.null() }), error_message: z.nullable(z.string()) }),
  },
  'contact.completed': {
    summary: 'A contact got its result',
    description: 'The v1 Contact (service_status unchanged) plus service_tier (v2’s service_status), service_answer_intent and service_identity, exactly as GET /api/v2/contacts/{id} shows them. Also the body of the per-contact callback.',
    data: z.object({ contact: ContactEventContact }),
  },
  'contact.failed': {
    summary: 'A contact could not be processed',
    description: 'Its credits are refunded; error_message says what to do. Also the body of the per-contact callback.',
    data: z.object({ contact: ContactEventContact }),
  },
  'spam.detected': {
    summary: 'A monitored number went from clean to flagged on a carrier',
    description: 'Edge-triggered: once per carrier on the transition, not on daily re-tests while flagged.',
    data: z.object({
      number_id: z.string().check(z.uuid()),
      phone_number: z.string(),
      carrier: CarrierStatus.shape.carrier,
      spam_label: z.nullable(z.string()),
      sip_response_code: z.nullable(z.string()),
      caller_id_verified: z.nullable(z.boolean()),
      same_carrier_warning: z.boolean(),
      test_run_id: z.string(),
      screenshot_available: z.boolean(),
      detected_at: timestamp,
    }),
  },
  'number.verified': {
    summary: 'A monitored number completed verification',
    description: 'Daily monitoring begins.',
    data: z.object({
      number_id: z.string().check(z.uuid()),
      phone_number: z.string(),
      carrier: z.nullable(z.string()),
      status: z.enum(['active', 'paused']),
      verified_at: timestamp,
    }),
  },
  'webhook.ping': {
    summary: 'Sent once at registration and when an endpoint’s URL changes',
    description: 'Answer 2xx within 10 seconds; the endpoint is saved (or the URL changed) only then. Never re-sent.',
    data: z.object({ challenge: z.string() }),
  },
};

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
