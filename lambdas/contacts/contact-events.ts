import * as z from '../platform/zod';
import { defineEvent } from '../webhooks/events';
import { ContactEventContact } from './contact-schema';

// The contact events' payloads (spec, Events), as outcomes.ts builds them (also the per-contact
// callback's body) and the OpenAPI `webhooks` section shows them.

export const CONTACT_COMPLETED = defineEvent({
  type: 'contact.completed',
  summary: 'A contact got its result',
  description: 'The v1 Contact (service_status unchanged) plus service_tier (v2’s service_status), service_answer_intent and service_identity, exactly as GET /api/v2/contacts/{id} shows them. Also the body of the per-contact callback.',
  data: z.lazySchema(() => z.object({ contact: ContactEventContact })),
});

export const CONTACT_FAILED = defineEvent({
  type: 'contact.failed',
  summary: 'A contact could not be processed',
  description: 'Its credits are refunded; error_message says what to do. Also the body of the per-contact callback.',
  data: z.lazySchema(() => z.object({ contact: ContactEventContact })),
});
