import { analyzeWithLibphonenumber, libphonenumberCount, normalizeUsCa, scanCount, typeReadCount } from '../lambdas/classification/normalize';
import { simulatorProvider } from '../lambdas/classification/simulator-provider';
import { mixedInputs } from './mixed-inputs';
import { baselineUsCa } from './baseline';
import { runChild } from './child';
import { pairedRounds, type PairedRatio } from './paired';

const N = Number(process.env.BENCH_NORMALIZE_N ?? 1_000_000);
const COLD_N = Number(process.env.BENCH_NORMALIZE_COLD_N ?? 20_000);
const ROUNDS = Number(process.env.BENCH_NORMALIZE_ROUNDS ?? 9);
const COLD_PAIRS = Number(process.env.BENCH_NORMALIZE_COLD_PAIRS ?? 3);
const SCAN_N = Number(process.env.BENCH_NORMALIZE_SCAN_N ?? 100_000);

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const round2 = (x: number): number => Number(x.toFixed(2));
const round4 = (x: number): number => Number(x.toFixed(4));

/**
 * The normalizer against libphonenumber-js parse + isValid, in the same run, on a phone column as
 * it comes (bench/mixed-inputs.ts: ~90% usual shapes, ~10% invalid and unusual cells, generated
 * without consulting the normalizer). Warm: both warmed alike on other inputs, then timed on the
 * same inputs in alternating blocks (bench/paired.ts), the inputs split into rounds; the figure is
 * the median of the rounds' ratios, with the lowest and highest beside it. The same on the inputs
 * libphonenumber-js refuses as US/CA numbers (`invalid`) and on the cells that are not usual shapes
 * (`unusual`). Cold: fresh processes, ours and theirs alternately, median of the pairs. Every
 * input is also checked against libphonenumber-js's full answer: the differences must be 0. Reads
 * of a number's text (scan-nanp.ts, and libphonenumber-js for what it leaves) are counted through
 * normalization and a lookup by the simulator provider (which asks the offline provider for the
 * type), per input; so are the types given from the prefix table by a normalized number's digits.
 */
export async function runClassificationBench(): Promise<Record<string, number>> {
  const warmup = mixedInputs(100_000, 99).map((i) => i.raw);
  for (let i = 0; i < 2; i++) {
    for (const raw of warmup) normalizeUsCa(raw);
    for (const raw of warmup) baselineUsCa(raw);
  }

  const inputs = mixedInputs(N, 7);
  const raws = inputs.map((i) => i.raw);
  const invalidRaws = raws.filter((raw) => baselineUsCa(raw) === null);
  const unusualRaws = inputs.filter((i) => i.kind !== 'usual').map((i) => i.raw);
  const realistic = pairedRounds(raws, baselineUsCa, normalizeUsCa, ROUNDS);
  const invalid = pairedRounds(invalidRaws, baselineUsCa, normalizeUsCa, ROUNDS);
  const unusual = pairedRounds(unusualRaws, baselineUsCa, normalizeUsCa, ROUNDS);

  let differences = 0;
  const handedBefore = libphonenumberCount();
  for (const raw of raws) {
    const ours = normalizeUsCa(raw);
    const a = analyzeWithLibphonenumber(raw);
    const expected = a.valid && (a.region === 'US' || a.region === 'CA') ? `${a.e164}|${a.region}|${a.type ?? 'UNKNOWN'}` : null;
    if ((ours ? `${ours.e164}|${ours.region}|${ours.type}` : null) !== expected) differences++;
  }
  const handed = libphonenumberCount() - handedBefore;

  // Every read of a number's text, from the cell to its signals: normalize, then look up what is
  // valid in batches as a chunk does (items carry the E.164 and a name, nothing else).
  const scanInputs = raws.slice(0, SCAN_N);
  const [scansBefore, typeReadsBefore] = [scanCount(), typeReadCount()];
  const numbers = scanInputs.map((raw) => normalizeUsCa(raw)).filter((n) => n !== null);
  for (let i = 0; i < numbers.length; i += 100) {
    const items = numbers.slice(i, i + 100).map((n) => ({ e164: n.e164, name: { full: 'Ada Lovelace' } }));
    await simulatorProvider.lookup(items, { tier: 'max', skipMobileLookup: false });
  }
  const scans = scanCount() - scansBefore;
  const typeReads = typeReadCount() - typeReadsBefore;

  // Paired fresh processes, the order alternating so that neither always starts on a quieter machine.
  const coldRatios: number[] = [];
  for (let p = 0; p < COLD_PAIRS; p++) {
    const seed = String(5 + p);
    const run = (mode: string) => runChild<{ ms: number }>('./normalize-child.ts', [mode, String(COLD_N), seed]);
    const [first, second] = p % 2 ? ['theirs', 'ours'] : ['ours', 'theirs'];
    const a = await run(first!);
    const b = await run(second!);
    const [ours, theirs] = first === 'ours' ? [a, b] : [b, a];
    coldRatios.push(theirs.ms / ours.ms);
  }

  const figures = (name: string, r: PairedRatio): Record<string, number> => ({
    [name]: round2(r.median),
    [`${name}_min`]: round2(r.min),
    [`${name}_max`]: round2(r.max),
  });
  return {
    normalize_inputs: N,
    normalize_invalid_inputs: invalidRaws.length,
    normalize_unusual_inputs: unusualRaws.length,
    normalize_rounds: ROUNDS,
    normalize_per_s: Math.round(N / (realistic.bMs / 1000)),
    libphonenumber_per_s: Math.round(N / (realistic.aMs / 1000)),
    ...figures('normalize_speedup_realistic', realistic),
    ...figures('normalize_speedup_invalid', invalid),
    ...figures('normalize_speedup_unusual', unusual),
    normalize_speedup_cold: round2(median(coldRatios)),
    normalize_speedup_cold_min: round2(Math.min(...coldRatios)),
    normalize_speedup_cold_max: round2(Math.max(...coldRatios)),
    normalize_differences: differences,
    normalize_libphonenumber_inputs: handed,
    normalize_libphonenumber_share: round4(handed / N),
    scans_per_number: round2(scans / scanInputs.length),
    // The simulator's type of a normalized number: its ten digits index the prefix table (no parse).
    type_reads_per_number: round2(typeReads / scanInputs.length),
  };
}
