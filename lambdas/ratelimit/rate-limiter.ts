import { RateLimited } from '../platform/domain-errors';
import { nowMs } from '../platform/clock';
import { allows, remainingAfter, resetAtUnix, retryAfterMs, type BucketShape } from './gcra';
import { takeKeyAndOrgTokens } from './org-bucket-repository';
import { config } from '../platform/config';

const PER_KEY = (): BucketShape => ({ limit: config().RATE_LIMIT_PER_KEY });
const PER_ORG = (): BucketShape => ({ limit: config().RATE_LIMIT_PER_ORG });

export interface RateLimitHeaders {
  'X-RateLimit-Limit': string;
  'X-RateLimit-Remaining': string;
  'X-RateLimit-Reset': string;
}

/**
 * Spends one token from the key's bucket and one from the organization's, both in one conditional
 * write or neither. Returns the headers for the response (of the tighter bucket), or throws the
 * spec's 429.
 */
export async function consumeRateLimit(apiKeyId: string, organizationId: string): Promise<RateLimitHeaders> {
  const now = nowMs();
  const outcome = await takeKeyAndOrgTokens(apiKeyId, organizationId, { key: PER_KEY(), org: PER_ORG() }, now);
  if (!outcome.taken) throw limited(outcome.scope, outcome.scope === 'per_key' ? PER_KEY() : PER_ORG(), outcome.tat ?? now, now);
  const keyRemaining = remainingAfter(PER_KEY(), outcome.keyTat, now);
  const orgRemaining = remainingAfter(PER_ORG(), outcome.orgTat, now);
  const [shape, remaining, tat] = keyRemaining <= orgRemaining ? [PER_KEY(), keyRemaining, outcome.keyTat] : [PER_ORG(), orgRemaining, outcome.orgTat];
  return headers(shape, remaining, tat, now);
}

function limited(scope: 'per_key' | 'per_org', shape: BucketShape, tat: number, now: number): RateLimited {
  // A bucket that had room when read (every write lost a race) still reports a wait of at least
  // one second, so clients back off.
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
