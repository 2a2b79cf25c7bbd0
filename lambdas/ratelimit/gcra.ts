// Token bucket expressed as GCRA (generic cell rate algorithm): one number per bucket, the
// "theoretical arrival time" (tat). A bucket of `limit` tokens refilling limit/60 per second is
// exactly GCRA with emission interval T = 60 s / limit and burst tolerance (limit - 1) * T. Its
// advantage here is that both outcomes are single conditional writes on one item, with no read
// first, so concurrent Lambdas cannot overspend a bucket.

export interface BucketShape {
  /** Tokens per window (a minute unless `windowMs` says otherwise), also the burst size. */
  limit: number;
  /** The window `limit` refills over; 1000 for a per-second provider limit whose burst is one second's worth. */
  windowMs?: number;
}

export const intervalMs = (shape: BucketShape): number => (shape.windowMs ?? 60_000) / shape.limit;
export const toleranceMs = (shape: BucketShape): number => (shape.limit - 1) * intervalMs(shape);

/** Tokens left after a request that moved the bucket's tat to `tat`. */
export function remainingAfter(shape: BucketShape, tat: number, now: number): number {
  return Math.max(0, Math.floor((now + toleranceMs(shape) + intervalMs(shape) - tat) / intervalMs(shape)));
}

/** Milliseconds until one token is available again for a bucket at `tat`. */
export function retryAfterMs(shape: BucketShape, tat: number, now: number): number {
  return Math.max(0, tat - toleranceMs(shape) - now);
}

/** Unix seconds at which the bucket is full again. */
export function resetAtUnix(tat: number, now: number): number {
  return Math.ceil(Math.max(tat, now) / 1000);
}

/** Would a request at `now` be allowed for a bucket at `tat` (undefined: never used)? */
export function allows(shape: BucketShape, tat: number | undefined, now: number): boolean {
  return tat === undefined || tat - now <= toleranceMs(shape);
}
