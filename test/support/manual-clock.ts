import { runWithClock, type Clock } from '../../lambdas/platform/clock';

/** A clock a test moves: real time until `set` pins or shifts it, real time again after `set(null)`. */
export interface ManualClock extends Clock {
  set(time: (() => number) | null): void;
  /** Runs `fn` (a use case called directly, not through a runtime) with this clock as the time. */
  run<T>(fn: () => T): T;
}

export function manualClock(): ManualClock {
  let time: (() => number) | null = null;
  const clock: ManualClock = {
    nowMs: () => (time ? time() : Date.now()),
    set: (next) => {
      time = next;
    },
    run: (fn) => runWithClock(clock, fn),
  };
  return clock;
}
