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

/**
 * How far past its budget a nearly done invocation goes on, as a fraction of the configured
 * budget: a chunk whose numbers left would be done by then, at this invocation's pace so far,
 * finishes instead of handing back a cursor. Looping costs a chunk its place at the shared rate
 * while the next invocation starts (its lane is empty, the other uploads take its slots) and the
 * re-reads of its chunk, checkpoint and screen; the chunks of a small upload reach their budgets
 * together, so its whole share went idle at once.
 */
export const FINISH_GRACE = 0.5;

export interface Progress {
  /** When the invocation started (epoch ms). */
  started: number;
  now: number;
  /** Numbers this invocation has answered so far. */
  answered: number;
  /** Numbers still without an answer. */
  left: number;
}

/**
 * The deadline workers take numbers until, decided when the budget's `deadline` is reached:
 * `stretched` (the budget with its grace, already bounded by the Lambda's remaining time less the
 * margin) when the numbers left are done by it at the pace so far, else `deadline`.
 */
export function finishDeadline(progress: Progress, deadline: number, stretched: number): number {
  const { started, now, answered, left } = progress;
  if (!(stretched > deadline) || !(left > 0) || !(answered > 0) || !(now > started)) return deadline;
  const finish = now + (left * (now - started)) / answered;
  return finish <= stretched ? stretched : deadline;
}
