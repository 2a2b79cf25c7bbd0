import { NEEDS_LIBPHONENUMBER, normalizeSlowly, normalizeWith, type NormalizedNumber, type SlowRead } from './normalize-core';

export { NEEDS_LIBPHONENUMBER, NOT_US_CA, e164OfNational, normalizeSlowly, normalizeWith, usCaNationalSlowly, usCaNationalWith, type NormalizedNumber, type SlowRead } from './normalize-core';

let slow: SlowRead | null = null;

/**
 * libphonenumber-js's reading of what the scan leaves, loaded from a chunk of its own (with its
 * ~52 KB of code and metadata) the first time a caller needs it, then kept.
 */
export async function loadSlowRead(): Promise<SlowRead> {
  slow ??= (await import('./libphonenumber-read')).libphonenumberRead;
  return slow;
}

/**
 * normalizeUsCa (normalize.ts), the same answers, for a caller that can wait: libphonenumber-js and
 * its metadata load the first time an input needs them, which the scan leaves to them for none of
 * the 1,000,000 inputs of the bench's mixed column (letters inside a number, ',', '~', tabs…). A function that normalizes one number per request (a
 * contact, a monitored number) does not carry them in its cold start; create's planner
 * (uploads/plan.ts) waits for them the same way.
 */
export async function normalizeUsCaOnDemand(raw: string): Promise<NormalizedNumber | null> {
  const answer = normalizeWith(raw, slow);
  if (answer !== NEEDS_LIBPHONENUMBER) return answer;
  return normalizeSlowly(raw, await loadSlowRead());
}
