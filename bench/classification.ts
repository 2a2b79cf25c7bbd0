import { analyzeWithLibphonenumber, normalizeUsCa } from '../lambdas/classification/normalize';
import { realisticInputs } from './inputs';
import { baselineUsCa } from './baseline';
import { runChild } from './child';

const N = Number(process.env.BENCH_NORMALIZE_N ?? 1_000_000);
const COLD_N = Number(process.env.BENCH_NORMALIZE_COLD_N ?? 20_000);

function time(inputs: string[], fn: (raw: string) => unknown): number {
  const t = performance.now();
  for (const raw of inputs) fn(raw);
  return performance.now() - t;
}

/**
 * The normalizer against libphonenumber-js parse + isValid on realistic inputs (every area code in
 * service, ~7% odd shapes), in the same run: warm (after a warm-up on other inputs), on the odd
 * shapes alone, and cold (a fresh process each). Every input is also checked against
 * libphonenumber-js's full answer: the differences must be 0.
 */
export async function runClassificationBench(): Promise<Record<string, number>> {
  const warmup = realisticInputs(100_000, 99).map((i) => i.raw);
  time(warmup, normalizeUsCa);
  time(warmup, baselineUsCa);

  const inputs = realisticInputs(N, 7);
  const raws = inputs.map((i) => i.raw);
  const odd = inputs.filter((i) => i.odd).map((i) => i.raw);
  const theirsMs = time(raws, baselineUsCa);
  const oursMs = time(raws, normalizeUsCa);
  const theirsOddMs = time(odd, baselineUsCa);
  const oursOddMs = time(odd, normalizeUsCa);

  let differences = 0;
  for (const raw of raws) {
    const ours = normalizeUsCa(raw);
    const a = analyzeWithLibphonenumber(raw);
    const expected = a.valid && (a.region === 'US' || a.region === 'CA') ? `${a.e164}|${a.region}|${a.type ?? 'UNKNOWN'}` : null;
    if ((ours ? `${ours.e164}|${ours.region}|${ours.type}` : null) !== expected) differences++;
  }

  const coldOurs = await runChild<{ ms: number }>('./normalize-child.ts', ['ours', String(COLD_N), '5']);
  const coldTheirs = await runChild<{ ms: number }>('./normalize-child.ts', ['theirs', String(COLD_N), '5']);
  return {
    normalize_inputs: N,
    normalize_odd_inputs: odd.length,
    normalize_per_s: Math.round(N / (oursMs / 1000)),
    libphonenumber_per_s: Math.round(N / (theirsMs / 1000)),
    normalize_speedup_realistic: Number((theirsMs / oursMs).toFixed(2)),
    normalize_speedup_odd_shapes: Number((theirsOddMs / oursOddMs).toFixed(2)),
    normalize_speedup_cold: Number((coldTheirs.ms / coldOurs.ms).toFixed(2)),
    normalize_differences: differences,
  };
}
