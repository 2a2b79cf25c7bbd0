// Spec, "Retry and disabling": the numbers of the delivery chain, in one place.

export const MAX_ATTEMPTS = 6;

/** Wait after attempt n (index n-1) before attempt n+1: 1 min, 5 min, 30 min, 2 h, 12 h. */
export const RETRY_DELAYS_MS = [60_000, 300_000, 1_800_000, 7_200_000, 43_200_000] as const;

export const AUTO_DISABLE_AFTER_FAILURES = 20;

/** SQS DelaySeconds cannot exceed 15 minutes; longer waits are carried by re-enqueueing. */
export const MAX_QUEUE_DELAY_SECONDS = 900;

/**
 * Answers that end a delivery at once instead of retrying. Only 410 Gone: the receiver says the
 * URL is gone for good. Every other non-2xx (3xx, since redirects are not followed; 4xx including
 * 429; 5xx) is retried, because receivers commonly answer 4xx while a deploy or a bug is being
 * fixed, and an event lost on a transient 400 cannot be replayed.
 */
export const isPermanentFailure = (statusCode: number | null): boolean => statusCode === 410;

/** When attempt `attemptsMade + 1` is due, or null when the chain is over. */
export function nextAttemptAtMs(attemptsMade: number, lastAttemptAtMs: number): number | null {
  if (attemptsMade >= MAX_ATTEMPTS) return null;
  return lastAttemptAtMs + RETRY_DELAYS_MS[attemptsMade - 1]!;
}

/** DelaySeconds for a message that should be handled at `dueAtMs`. */
export const queueDelaySeconds = (dueAtMs: number, nowMs: number): number =>
  Math.min(MAX_QUEUE_DELAY_SECONDS, Math.max(0, Math.ceil((dueAtMs - nowMs) / 1000)));
