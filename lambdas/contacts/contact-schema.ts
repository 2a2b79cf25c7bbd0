// A contact as the API answers it (v1 and v2) and as contact.* events and callbacks carry it, apart
// from the route table (./routes.ts): the steps and jobs that announce or end contacts (notify-pool,
// the contact pool, recovery) need these shapes and the properties limit, not the API's requests
// (docs/performance.md, "Cold imports, twelfth step").
import * as z from '../platform/zod';
import { timestamp, freeFormObject } from '../platform/http/common-schemas';
import { AnswerIntent, IdentityBand, ServiceStatus } from '../classification/schemas';

export const CONTACT_STATUSES = ['queued', 'processing', 'completed', 'failed', 'discarded'] as const;
/** Spec leaves the size open: 16 KiB of JSON keeps a contact item far below DynamoDB's 400 KB. */
export const MAX_PROPERTIES_BYTES = 16 * 1024;

// The fields every contact shape shares, built inside each shape's lazy schema.
const contactBase = () => ({
  id: z.string().check(z.uuid()),
  organization_id: z.string().check(z.uuid()),
  phone: z.string().check(z.describe('E.164')),
  properties: freeFormObject('properties must be an object'),
  status: z.enum(CONTACT_STATUSES),
  error_message: z.nullable(z.string()),
  message: z.nullable(z.string()),
  validation_tier: z.enum(['standard', 'max']),
  credits_charged: z.number().check(z.int()),
  created_at: timestamp,
  updated_at: timestamp,
});

export const ContactV1 = z.lazySchema(() => z
  .object({ ...contactBase(), service_status: z.nullable(AnswerIntent).check(z.describe('set when completed: the Answer Intent value')) })
  .check(z.meta({ id: 'ContactV1', description: 'service_status holds the Answer Intent value' })));
export const ContactV2 = z.lazySchema(() => z
  .object({
    ...contactBase(),
    service_status: z.nullable(ServiceStatus).check(z.describe('set when completed: the nine-tier value (the Answer Intent value when processed without identity)')),
    service_answer_intent: z.nullable(AnswerIntent).check(z.describe('null when processed without identity (no name in properties)')),
    service_identity: z.nullable(IdentityBand).check(z.describe('null when processed without identity (no name in properties)')),
  })
  .check(z.meta({ id: 'ContactV2', description: 'service_status holds the nine-tier value (Answer Intent when processed without identity)' })));

/** The contact in contact.* events and callbacks: v1's fields plus v2's, with v2's status as service_tier (docs/contacts.md). */
export const ContactEventContact = z.lazySchema(() => z
  .object({
    ...contactBase(),
    service_status: z.nullable(AnswerIntent).check(z.describe('the Answer Intent value, as in v1')),
    service_tier: z.nullable(ServiceStatus).check(z.describe('v2’s service_status')),
    service_answer_intent: z.nullable(AnswerIntent),
    service_identity: z.nullable(IdentityBand),
  })
  .check(z.meta({ id: 'ContactEventContact' })));
