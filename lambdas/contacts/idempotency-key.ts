import { InvalidInput } from '../platform/domain-errors';

export const MAX_IDEMPOTENCY_KEY_LENGTH = 255;

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
  if (bodyKey !== undefined && headerKey !== undefined && bodyKey !== headerKey) {
    throw new InvalidInput('The Idempotency-Key header and the body’s idempotency_key differ; send one of them, or the same value in both');
  }
  return bodyKey ?? headerKey;
}
