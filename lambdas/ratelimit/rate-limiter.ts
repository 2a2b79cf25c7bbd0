import { RateLimited } from '../platform/domain-errors';
import { nowMs } from '../platform/clock';
import { allows, remainingAfter, resetAtUnix, retryAfterMs, type BucketShape } from './gcra';
import { readTat, returnToken, takeToken } from './bucket-repository';
import { config } from '../platform/config';

const PER_KEY = (): BucketShape => ({ limit: config().RATE_LIMIT_PER_KEY });
const PER_ORG = (): BucketShape => ({ limit: config().RATE_LIMIT_PER_ORG });

export interface RateLimitHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
}

/**
 * Spends one token from the key's bucket and one from the organization's. Returns the headers for
 * the response (of the tighter bucket), or throws the spec's 429.
 */
export async function consumeRateLimit(apiKeyId: string, organizationId: string): Promise<RateLimitHeaders> {
  const now = nowMs();
  const keyBucket = `key#${apiKeyId}`;
  const orgBucket = `org#${organizationId}`;

  const keyTat = await takeToken(keyBucket, PER_KEY(), now);
  if (keyTat === null) throw await limited('per_key', keyBucket, PER_KEY(), now);
  const orgTat = await takeToken(orgBucket, PER_ORG(), now);
  if (orgTat === null) {
    await returnToken(keyBucket, PER_KEY());
    throw await limited('per_org', orgBucket, PER_ORG(), now);
  }
  const keyRemaining = remainingAfter(PER_KEY(), keyTat, now);
  const orgRemaining = remainingAfter(PER_ORG(), orgTat, now);
  const [shape, remaining, tat] = keyRemaining <= orgRemaining ? [PER_KEY(), keyRemaining, keyTat] : [PER_ORG(), orgRemaining, orgTat];
  return headers(shape, remaining, tat, now);
}

async function limited(scope: 'per_key' | 'per_org', bucketId: string, shape: BucketShape, now: number): Promise<RateLimited> {
  const tat = (await readTat(bucketId)) ?? now;
  // A refill may have happened between the failed write and this read; still report a wait of at
  // least one second so clients back off.
  const waitMs = allows(shape, tat, now) ? 1000 : retryAfterMs(shape, tat, now);
  const retryAfter = Math.max(1, Math.ceil(waitMs / 1000));
  return new RateLimited(
    { error: 'rate_limit_exceeded', scope, limit: shape.limit, retry_after_seconds: retryAfter },
    { retryAfterSeconds: retryAfter, limit: shape.limit, remaining: 0, resetAt: resetAtUnix(tat, now) },
  );
}

function headers(shape: BucketShape, remaining: number, tat: number, now: number): RateLimitHeaders {
  return {
    'X-RateLimit-Limit': String(shape.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(resetAtUnix(tat, now)),
  };
}
