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

  let differences = 0;
  for (const raw of phoneInputs(N, 11, 'all')) {
    if (JSON.stringify(analyze(raw)) !== JSON.stringify(analyzeWithLibphonenumber(raw))) differences++;
  }
  const normalize_per_s = Math.round(N / (oursMs / 1000));
  const libphonenumber_per_s = Math.round(N / (theirsMs / 1000));
  return {
    normalize_inputs: N,
    normalize_per_s,
    libphonenumber_per_s,
    normalize_speedup: Number((normalize_per_s / libphonenumber_per_s).toFixed(2)),
    normalize_differences: differences,
  };
}
