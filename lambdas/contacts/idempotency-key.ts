import { InvalidInput } from '../platform/domain-errors';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

/** What an Idempotency-Key header may hold (the body's key may hold any characters). */
export const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

/**
 * The idempotency key of a contact create: the body's `idempotency_key` or the `Idempotency-Key`
 * header (the convention integrators know from Stripe), one and the same key with the same
 * per-(organization, API key) scope. Both given and different is a 400: which one was meant is
 * the caller's to say.
 */
export function idempotencyKeyOf(bodyKey: string | undefined, headerKey: string | undefined): string | undefined {
  if (headerKey !== undefined && (headerKey.length < 1 || headerKey.length > MAX_IDEMPOTENCY_KEY_LENGTH)) {
    throw new InvalidInput(`The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters (got ${headerKey.length})`);
  }
  // Header values travel as bytes that servers and API Gateway decode differently (Node reads a
  // UTF-8 'é' as two Latin-1 characters): a key outside visible ASCII would not be the body's same
  // key, and a retry through the other one would charge again.
  // A header sent twice arrives as one value joined with ',' (API Gateway; fetch's Headers with ', '),
  // which would be a key of its own: a header key may not hold a comma (the body's key may).
  if (headerKey !== undefined && headerKey.includes(',')) {
    throw new InvalidInput(`The Idempotency-Key header arrived as "${headerKey.slice(0, 80)}": sent more than once, or a key holding a comma; send it once, with one key (a key with a comma goes in the body's idempotency_key)`);
  }
  if (headerKey !== undefined && !VISIBLE_ASCII.test(headerKey)) {
    throw new InvalidInput('The Idempotency-Key header must be visible ASCII characters (letters, digits, punctuation); send a key with other characters as the body’s idempotency_key');
  }
  if (bodyKey !== undefined && headerKey !== undefined && bodyKey !== headerKey) {
    throw new InvalidInput('The Idempotency-Key header and the body’s idempotency_key differ; send one of them, or the same value in both');
  }
  return bodyKey ?? headerKey;
}
