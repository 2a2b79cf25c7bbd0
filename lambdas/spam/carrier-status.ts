import * as z from '../platform/zod';
import { timestamp } from '../platform/http/common-schemas';
import { carrierSchema, testStatusSchema } from './test-run-fields';

// A monitored number's latest test per carrier, as the API shows it (routes.ts) and the spam
// events carry it (spam-events.ts). A module of its own, not in routes.ts: the functions that emit
// those events (the carrier-test consumer, the daily run) would otherwise load the whole spam
// route table at every cold start (~5 KB of code that esbuild keeps: its top level calls functions).

export const CarrierStatus = z.lazySchema(() => z
  .object({
    carrier: carrierSchema,
    status: testStatusSchema.check(z.describe('state of the latest test for this carrier')),
    spam_detected: z.nullable(z.boolean()).check(z.describe('null until the latest run completes')),
    spam_label: z.nullable(z.string()).check(z.describe('label the carrier displays, when flagged')),
    test_run_id: z.nullable(z.string()),
    captured_at: z.nullable(timestamp),
    screenshot_available: z.boolean(),
    same_carrier_warning: z.boolean().check(z.describe('additive: this test ran from the number’s own carrier')),
    simulated: z.boolean().check(z.describe('additive: true when the result came from the simulator, not a real handset')),
  })
  .check(z.meta({ id: 'CarrierStatus' })));

