// How long one ClassifyChunk invocation takes new lookups. It must end well inside its Task's
// timeout: after the budget it still finishes the lookups in flight (each up to TWILIO_ATTEMPTS
// tries of TWILIO_TIMEOUT_MS, with backoff, after waiting its turn at the shared rate) and writes
// its checkpoint. So the budget is the configured one, or the Lambda's remaining time less this
// margin when that is shorter (a Lambda started late, or a stage with a shorter timeout).

/** Time kept back from the Lambda's remaining time for the lookups in flight and the checkpoint. */
export const CLASSIFY_MARGIN_MS = 120_000;

export function classifyBudgetMs(configuredMs: number, remainingMs: number | undefined, marginMs = CLASSIFY_MARGIN_MS): number {
  const byRemaining = remainingMs === undefined || !Number.isFinite(remainingMs) ? Infinity : remainingMs - marginMs;
  return Math.max(0, Math.min(configuredMs, byRemaining));
}

/** Whether a worker takes another batch: before the deadline, and always its first (every invocation moves the chunk on). */
export function takesAnother(now: number, deadline: number, taken: number): boolean {
  return taken === 0 || now < deadline;
}
