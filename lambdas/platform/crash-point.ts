import { config } from './config';

// Fault injection for the reliability suite (test/reliability): a process started with
// FAULT_CRASH_AT=<name> kills itself with SIGKILL, exactly as `kill -9` would, when it reaches the
// point of that name; nothing after it runs, no handler, no flush. Unset (always, outside that
// suite), a crash point is one comparison. The points are listed in docs/reliability.md.

export function crashPoint(name: string): void {
  if (config().FAULT_CRASH_AT === name) process.kill(process.pid, 'SIGKILL');
}
