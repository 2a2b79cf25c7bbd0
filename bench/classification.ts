import { analyze, analyzeWithLibphonenumber } from '../lambdas/classification/normalize';
import { phoneInputs } from '../test/support/phone-inputs';

const N = Number(process.env.BENCH_NORMALIZE_N ?? 1_000_000);

/**
 * The normalizer against per-number libphonenumber-js, in the same run on the same inputs:
 * throughput on upload-like lists, and zero differences on inputs spread over every shape.
 */
export async function runClassificationBench(): Promise<Record<string, number>> {
  const upload = [...phoneInputs(N, 7, 'upload')];
  let t = performance.now();
  for (const raw of upload) analyze(raw);
  const oursMs = performance.now() - t;
  t = performance.now();
  for (const raw of upload) analyzeWithLibphonenumber(raw);
  const theirsMs = performance.now() - t;

  // Every shape equally often (a third of them always go to libphonenumber-js): the differential
  // over 1,000,000 inputs, and the speedup on that harder mix for the record.
  const all = [...phoneInputs(N, 11, 'all')];
  t = performance.now();
  const ours = all.map((raw) => analyze(raw));
  const oursAllMs = performance.now() - t;
  t = performance.now();
  const theirs = all.map((raw) => analyzeWithLibphonenumber(raw));
  const theirsAllMs = performance.now() - t;
  let differences = 0;
  for (let i = 0; i < all.length; i++) if (JSON.stringify(ours[i]) !== JSON.stringify(theirs[i])) differences++;
  const normalize_per_s = Math.round(N / (oursMs / 1000));
  const libphonenumber_per_s = Math.round(N / (theirsMs / 1000));
  return {
    normalize_inputs: N,
    normalize_per_s,
    libphonenumber_per_s,
    normalize_speedup: Number((normalize_per_s / libphonenumber_per_s).toFixed(2)),
    normalize_differences: differences,
    normalize_speedup_all_shapes: Number((theirsAllMs / oursAllMs).toFixed(2)),
  };
}
