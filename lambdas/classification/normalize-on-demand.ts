import { NEEDS_LIBPHONENUMBER, normalizeSlowly, normalizeWith, type NormalizedNumber, type SlowRead } from './normalize-core';

let slow: SlowRead | null = null;

/**
 * normalizeUsCa (normalize.ts), the same answers, for a caller that can wait: libphonenumber-js and
 * its metadata (~52 KB of a bundle) load from a chunk of their own the first time an input needs
 * them, which the scan leaves to them for 25 inputs in 1,000,000 of the bench's mixed column. A
 * function that normalizes one number per request (a contact, a monitored number) does not carry
 * them in its cold start.
 */
export async function normalizeUsCaOnDemand(raw: string): Promise<NormalizedNumber | null> {
  const answer = normalizeWith(raw, slow);
  if (answer !== NEEDS_LIBPHONENUMBER) return answer;
  slow ??= (await import('./libphonenumber-read')).libphonenumberRead;
  return normalizeSlowly(raw, slow);
}
