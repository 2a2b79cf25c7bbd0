/**
 * The slowest a request body may arrive: at least `bytesPerSecond` on average over every window of
 * `windowMs` while the body is being read. A client that sends less (a stalled or deliberately
 * dribbling upload) is cut with 408 at the end of that window instead of holding its connection
 * and its share of the body budget until the request timeout.
 */
export interface BodyRateRule {
  bytesPerSecond: number;
  windowMs: number;
}

/** The least a window must bring for the body to keep going. */
export function windowMinimum(rule: BodyRateRule): number {
  return Math.ceil((rule.bytesPerSecond * rule.windowMs) / 1000);
}

/** Whether a window that brought `bytes` is below the rule. */
export const tooSlow = (bytes: number, rule: BodyRateRule): boolean => bytes < windowMinimum(rule);

export function checkRateRule(rule: BodyRateRule): BodyRateRule {
  if (!(rule.bytesPerSecond >= 0) || !Number.isFinite(rule.bytesPerSecond)) throw new Error(`A minimum body rate must be a non-negative number of bytes per second; got ${rule.bytesPerSecond}`);
  if (!(rule.windowMs > 0) || !Number.isFinite(rule.windowMs)) throw new Error(`A body rate window must be a positive number of milliseconds; got ${rule.windowMs}`);
  return rule;
}

/**
 * Counts the bytes of a body as they are read and calls `onSlow` once, at the end of the first
 * window that brought too few. `stop` when the body has ended (or the read was abandoned).
 */
export class BodyRateWatch {
  private bytes = 0;
  private stopped = false;
  private readonly timer: NodeJS.Timeout;

  constructor(rule: BodyRateRule, onSlow: () => void) {
    this.timer = setInterval(() => {
      // Judged after the event loop's next poll: when the process was busy (another request's
      // parse), bytes that arrived meanwhile are counted before the verdict, so a stall of this
      // server is never taken for a slow client.
      setImmediate(() => {
        if (this.stopped) return;
        const slow = tooSlow(this.bytes, rule);
        this.bytes = 0;
        if (!slow) return;
        this.stop();
        onSlow();
      });
    }, rule.windowMs);
  }

  add(bytes: number): void {
    this.bytes += bytes;
  }

  stop(): void {
    this.stopped = true;
    clearInterval(this.timer);
  }
}
