import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import { defineEvent } from '../webhooks/events';
import { CarrierStatus } from './carrier-status';

// The spam monitoring events' payloads (spec, Events), as carrier-item.ts and numbers.ts build
// them and the OpenAPI `webhooks` section shows them.

export const SPAM_DETECTED = defineEvent({
  type: 'spam.detected',
  summary: 'A monitored number went from clean to flagged on a carrier',
  description: 'Edge-triggered: once per carrier on the transition, not on daily re-tests while flagged.',
  data: z.lazySchema(() => z.object({
    number_id: z.string().check(z.uuid()),
    phone_number: z.string(),
    carrier: z.builtSchema(CarrierStatus).shape.carrier,
    spam_label: z.nullable(z.string()),
    sip_response_code: z.nullable(z.string()),
    caller_id_verified: z.nullable(z.boolean()),
    same_carrier_warning: z.boolean(),
    test_run_id: z.string(),
    screenshot_available: z.boolean(),
    detected_at: timestamp,
  })),
});

export const NUMBER_VERIFIED = defineEvent({
  type: 'number.verified',
  summary: 'A monitored number completed verification',
  description: 'Daily monitoring begins.',
  data: z.lazySchema(() => z.object({
    number_id: z.string().check(z.uuid()),
    phone_number: z.string(),
    carrier: z.nullable(z.string()),
    status: z.enum(['active', 'paused']),
    verified_at: timestamp,
  })),
});
