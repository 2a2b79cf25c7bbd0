// When the console renews its tokens: a plain rule, unit-tested (test/unit/console/renewal.test.ts).

/** The longest a renewal is made before the access token expires (a minute; tokens last an hour). */
export const RENEW_AHEAD_SECONDS = 60;
/** A failed renewal is tried again this soon, while the token still holds. */
export const RETRY_SECONDS = 5;

/**
 * Seconds from now to renew a token that expires in `expiresIn` seconds: a minute before it
 * expires, or half-way through a shorter life, so a short-lived token is renewed once per half-life
 * rather than in a loop; now when it has expired or has no known expiry.
 */
export function renewInSeconds(expiresIn: number | undefined): number {
  if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn <= 0) return 0;
  return Math.max(expiresIn - RENEW_AHEAD_SECONDS, expiresIn / 2);
}

/** After a failed renewal: try again soon if the token lasts until then, else stop (sign in again). */
export function retryInSeconds(expiresIn: number | undefined): number | null {
  if (expiresIn === undefined || !Number.isFinite(expiresIn) || expiresIn <= RETRY_SECONDS) return null;
  return RETRY_SECONDS;
}
