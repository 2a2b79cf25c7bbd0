import * as z from '../platform/zod';
import { CARRIERS } from './carriers';

// A carrier test's verdict fields, the same in the stored run (run-repository.ts), the number's
// latest status per carrier (number-repository.ts) and the API's history items (routes.ts).

export const carrierSchema = z.enum(CARRIERS);
export const testStatusSchema = z.enum(['pending', 'running', 'completed', 'failed']);

/** Built inside each schema's lazy schema that spreads them. */
export const verdictFields = () => ({
  spam_detected: z.nullable(z.boolean()),
  spam_label: z.nullable(z.string()),
  sip_response_code: z.nullable(z.string()),
  caller_id_verified: z.nullable(z.boolean()),
  same_carrier_warning: z.boolean(),
});
