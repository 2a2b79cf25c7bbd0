import { readdirSync, readFileSync } from 'node:fs';

// Where this process's CPU time went, by kind of thread, from Linux's /proc: the main thread
// (JavaScript, the collector's pauses, the main thread's system calls), V8's helper threads (the
// platform's workers, named "node": concurrent marking, sweeping, optimizing compilation) and
// libuv's pool (file system calls: the embedded store's writes). process.cpuUsage() gives only the
// sum; a figure that charges create for all three can then say which one moved.

/** CPU time per kind of thread, ms (10 ms steps: Linux counts a thread's time in clock ticks of 1/100 s). */
export interface ThreadCpu {
  main: number;
  v8Helpers: number;
  libuv: number;
}

const TICK_MS = 10;

/** This process's CPU time by kind of thread so far; null where /proc is not there (not Linux). */
export function threadCpu(): ThreadCpu | null {
  let tasks: string[];
  try {
    tasks = readdirSync('/proc/self/task');
  } catch {
    return null;
  }
  const cpu: ThreadCpu = { main: 0, v8Helpers: 0, libuv: 0 };
  for (const tid of tasks) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    } catch {
      continue; // a thread that ended between the listing and the read
    }
    const { name, ms } = taskStat(stat);
    if (tid === String(process.pid)) cpu.main += ms;
    else if (name.startsWith('libuv-worker')) cpu.libuv += ms;
    else cpu.v8Helpers += ms;
  }
  return cpu;
}

/** A thread's name and CPU time (user and system, ms) from its `/proc/<pid>/task/<tid>/stat` line. */
export function taskStat(stat: string): { name: string; ms: number } {
  // The name may hold spaces and parentheses: it ends at the last ')'. utime and stime are the
  // line's 14th and 15th fields, the 12th and 13th after the name.
  const close = stat.lastIndexOf(')');
  const fields = stat.slice(close + 2).split(' ');
  return { name: stat.slice(stat.indexOf('(') + 1, close), ms: (Number(fields[11]) + Number(fields[12])) * TICK_MS };
}

/** Bytes this process has written through system calls so far (files and sockets); null without /proc. */
export function bytesWritten(): number | null {
  try {
    const match = /^wchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'));
    return match ? Number(match[1]) : null;
  } catch {
    return null;
  }
}

/** `after` minus `before`, kind by kind. */
export const threadCpuSince = (before: ThreadCpu, after: ThreadCpu): ThreadCpu => ({
  main: after.main - before.main,
  v8Helpers: after.v8Helpers - before.v8Helpers,
  libuv: after.libuv - before.libuv,
});
