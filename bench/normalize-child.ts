// One cold process: normalizes `count` fresh inputs of the mixed phone column (bench/mixed-inputs.ts)
// with the service's normalizer or with the baseline (libphonenumber-js parse + isValid), and prints
// the time it took as JSON.
import { mixedInputs } from './mixed-inputs';
import { baselineUsCa } from './baseline';

const [mode, count, seed] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];
const inputs = mixedInputs(count, seed).map((i) => i.raw);
const { normalizeUsCa } = await import('../lambdas/classification/normalize');
const fn = mode === 'ours' ? normalizeUsCa : baselineUsCa;
const t = performance.now();
let valid = 0;
for (const raw of inputs) if (fn(raw)) valid++;
console.log(JSON.stringify({ ms: performance.now() - t, valid }));
