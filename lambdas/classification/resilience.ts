// Bounded concurrency, retries with exponential backoff, and an in-process token bucket: what
// every paid provider call goes through.

export async function mapConcurrent<T, R>(items: T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const workers = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!, i);
    }
  });
  await Promise.all(workers);
  return out;
}

export class RetryableError extends Error {
  constructor(
    message: string,
    readonly retryAfterMs: number | null = null,
  ) {
    super(message);
    this.name = 'RetryableError';
  }
}

export interface RetryOptions {
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Retries only RetryableError, waiting Retry-After when given, else exponential backoff with jitter. */
export async function withRetries<T>(fn: () => Promise<T>, options: RetryOptions): Promise<T> {
  const sleep = options.sleep ?? defaultSleep;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (error) {
      if (!(error instanceof RetryableError) || attempt >= options.attempts) throw error;
      const backoff = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1)) * (0.5 + Math.random() / 2);
      await sleep(error.retryAfterMs ?? backoff);
    }
  }
}

/** Requests per second, smoothly: each call waits for its slot. */
export class RateLimiter {
  private nextSlot = 0;
  constructor(
    private readonly perSecond: number,
    private readonly sleep: (ms: number) => Promise<void> = defaultSleep,
  ) {}

  async take(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, this.nextSlot);
    this.nextSlot = slot + 1000 / this.perSecond;
    if (slot > now) await this.sleep(slot - now);
  }
}
