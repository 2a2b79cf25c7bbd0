import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bytesWritten, taskStat, threadCpu, threadCpuSince } from '../../../bench/thread-cpu';

const linux = process.platform === 'linux';

describe('bench/thread-cpu', () => {
  it('reads a thread name holding spaces and parentheses, and its user and system ticks', () => {
    // pid (comm) state ppid pgrp session tty_nr tpgid flags minflt cminflt majflt cmajflt utime stime ...
    const stat = '4242 (odd (name) 1) S 1 4242 4242 0 -1 4194560 100 0 0 0 37 5 0 0 20 0 11 0';
    expect(taskStat(stat)).toEqual({ name: 'odd (name) 1', ms: 420 });
  });

  it.runIf(linux)("counts the main thread's CPU as the main thread's", () => {
    const before = threadCpu()!;
    let spent = threadCpuSince(before, threadCpu()!);
    let sink = 0;
    // Burns CPU until the kernel has counted at least two ticks of it (CPU time: holds under load).
    while (spent.main < 20) {
      for (let i = 0; i < 1e6; i++) sink += Math.sqrt(i);
      spent = threadCpuSince(before, threadCpu()!);
    }
    expect(sink).toBeGreaterThan(0);
    expect(spent.main).toBeGreaterThanOrEqual(20);
    expect(spent.v8Helpers).toBeGreaterThanOrEqual(0);
    expect(spent.libuv).toBeGreaterThanOrEqual(0);
  });

  it.runIf(linux)('counts the bytes the process writes', () => {
    const dir = mkdtempSync(join(tmpdir(), 'thread-cpu-'));
    try {
      const before = bytesWritten()!;
      writeFileSync(join(dir, 'f'), Buffer.alloc(1 << 20, 1));
      expect(bytesWritten()! - before).toBeGreaterThanOrEqual(1 << 20);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
