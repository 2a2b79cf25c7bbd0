import { AsyncLocalStorage } from 'node:async_hooks';

/** Where the service reads the time: a port, so tests can move time (retry offsets, expiries, token buckets) without sleeping. */
export interface Clock {
  nowMs(): number;
}

export const systemClock: Clock = { nowMs: () => Date.now() };

// The clock travels with the work, not in a module variable: a composition root runs what it
// starts inside its clock's scope, and every request, timer and workflow step started there reads
// that clock. Time is read deep in repositories and rules (about forty call sites); a parameter
// through every signature would buy nothing a scope does not. Outside any scope (AWS, where the root
// never opens one) it is the system clock.
const scope = new AsyncLocalStorage<Clock>();

/** Runs `fn`, and everything it starts, with `clock` as the time. */
export function runWithClock<T>(clock: Clock, fn: () => T): T {
  return scope.run(clock, fn);
}

export function nowMs(): number {
  return (scope.getStore() ?? systemClock).nowMs();
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
