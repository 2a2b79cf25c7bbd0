import { config, type Config } from '../platform/config';

// A module of its own: the upload's chunk plan reads the rate (uploads/chunk-plan.ts), and importing
// it from classify.ts brought every provider adapter and the +1 tables into the code that only plans.

/** The account rate (calls a second) of the paid provider CLASSIFICATION_PROVIDER names; null for a free one. */
export function paidRatePerSecond(settings: Config = config()): number | null {
  const name = settings.CLASSIFICATION_PROVIDER;
  if (name === 'twilio') return Number(settings.TWILIO_REQUESTS_PER_SECOND ?? 50);
  if (name === 'telnyx') return settings.TELNYX_REQUESTS_PER_SECOND;
  if (name === 'trestle') return settings.TRESTLE_REQUESTS_PER_SECOND;
  return null;
}
