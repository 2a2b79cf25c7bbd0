// One clock for the whole service so tests can move time (retry offsets, expiries, token buckets)
// without sleeping.
let override: (() => number) | null = null;

export function nowMs(): number {
  return override ? override() : Date.now();
}

export function now(): Date {
  return new Date(nowMs());
}

export function nowIso(): string {
  return now().toISOString();
}

export function nowUnix(): number {
  return Math.floor(nowMs() / 1000);
}

/**
 * Test hook: pin or advance the clock. Pass null to restore real time. The test setup
 * (test/support/restore-time.ts) passes null after every test. The service itself never calls it.
 */
export function setClock(fn: (() => number) | null): void {
  override = fn;
}
