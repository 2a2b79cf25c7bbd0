import * as z from 'zod';
import { CARRIERS } from './carriers';

// A carrier test's verdict fields, the same in the stored run (run-repository.ts), the number's
// latest status per carrier (number-repository.ts) and the API's history items (routes.ts).

export const carrierSchema = z.enum(CARRIERS);
export const testStatusSchema = z.enum(['pending', 'running', 'completed', 'failed']);

export const verdictFields = {
  spam_detected: z.boolean().nullable(),
  spam_label: z.string().nullable(),
  sip_response_code: z.string().nullable(),
  caller_id_verified: z.boolean().nullable(),
  same_carrier_warning: z.boolean(),
};
