// Paired timing for ratios that hold on a loaded machine. Timing a baseline over all inputs and
// then the candidate over the same inputs lets a change in the machine's load between the two
// passes (other processes on the 2 shared cores) move the ratio by half or more. Here both run
// over the same inputs in alternating blocks small enough (a few ms of CPU) that a change of load falls
// on both alike; the order within each pair of blocks alternates too, so neither always runs
// right after the other's garbage. The inputs are split into rounds, each a ratio of its own: the
// median of those is the figure, the lowest and highest its spread. Time is the process's CPU
// time (process.cpuUsage), not wall time: with more runnable processes than cores, a block may
// wait for a core for longer than it runs, and that wait says nothing of either function.

export interface PairedRatio {
  /** Median over the rounds of (baseline time / candidate time). */
  median: number;
  min: number;
  max: number;
  /** CPU time over every round, in milliseconds. */
  aMs: number;
  bMs: number;
}

const BLOCK = Number(process.env.BENCH_PAIRED_BLOCK ?? 1000);

// A result is counted so that no call can be dropped as unused.
let sink = 0;
export const pairedSink = (): number => sink;

function block(fn: (raw: string) => unknown, inputs: string[], from: number, to: number): number {
  const t = process.cpuUsage();
  let kept = 0;
  for (let i = from; i < to; i++) if (fn(inputs[i]!)) kept++;
  const used = process.cpuUsage(t);
  sink += kept;
  return (used.user + used.system) / 1000;
}

/** `a` (the baseline) and `b` (the candidate) timed on `inputs` in `rounds` rounds of alternating blocks. */
export function pairedRounds(inputs: string[], a: (raw: string) => unknown, b: (raw: string) => unknown, rounds: number): PairedRatio {
  const ratios: number[] = [];
  let aMs = 0;
  let bMs = 0;
  const size = Math.ceil(inputs.length / rounds);
  for (let r = 0; r < rounds; r++) {
    const end = Math.min(inputs.length, (r + 1) * size);
    let ra = 0;
    let rb = 0;
    for (let from = r * size, k = 0; from < end; from += BLOCK, k++) {
      const to = Math.min(end, from + BLOCK);
      if (k % 2 === 0) {
        ra += block(a, inputs, from, to);
        rb += block(b, inputs, from, to);
      } else {
        rb += block(b, inputs, from, to);
        ra += block(a, inputs, from, to);
      }
    }
    ratios.push(ra / rb);
    aMs += ra;
    bMs += rb;
  }
  const sorted = [...ratios].sort((x, y) => x - y);
  const m = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[m]! : (sorted[m - 1]! + sorted[m]!) / 2;
  return { median, min: sorted[0]!, max: sorted[sorted.length - 1]!, aMs, bMs };
}
