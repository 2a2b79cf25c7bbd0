import { describe, expect, it } from 'vitest';
import { renewInSeconds, retryInSeconds, RENEW_AHEAD_SECONDS, RETRY_SECONDS } from '../../../web/src/renewal';

describe('console token renewal timing', () => {
  it('renews an hour-long token a minute before it expires', () => {
    expect(renewInSeconds(3600)).toBe(3600 - RENEW_AHEAD_SECONDS);
    expect(renewInSeconds(3599.4)).toBeCloseTo(3539.4);
  });

  it('renews a short-lived token half-way through its life, never in a loop', () => {
    expect(renewInSeconds(30)).toBe(15);
    expect(renewInSeconds(120)).toBe(60);
    expect(renewInSeconds(1)).toBe(0.5);
  });

  it('renews at once a token that expired or has no expiry; hostile values included', () => {
    for (const v of [0, -5, undefined, Number.NaN, Number.NEGATIVE_INFINITY]) expect(renewInSeconds(v)).toBe(0);
    expect(renewInSeconds(Number.POSITIVE_INFINITY)).toBe(0);
  });

  it('retries a failed renewal while the token still holds, and gives up when it does not', () => {
    expect(retryInSeconds(30)).toBe(RETRY_SECONDS);
    expect(retryInSeconds(RETRY_SECONDS)).toBeNull();
    expect(retryInSeconds(0)).toBeNull();
    expect(retryInSeconds(undefined)).toBeNull();
    expect(retryInSeconds(Number.NaN)).toBeNull();
  });
});
