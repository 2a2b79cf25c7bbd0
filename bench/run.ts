// Request logs would bury the result; set before the modules that create the logger load.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const { runClassificationBench } = await import('./classification');
const { runUploadsBench } = await import('./uploads');
const { runRequestsBench } = await import('./requests');
const { runBundlesBench } = await import('./bundles');
const { runContactsBench } = await import('./contacts');
const { runApiMemoryBench } = await import('./api-memory');
const { runProvidersBench } = await import('./providers');
const { runSlicesBench } = await import('./slices');

// `npm run bench`: every benchmark, each reported as ratios against a baseline measured in the
// same run. Progress goes to stderr; the last line of stdout is one JSON object with every figure.
// `npm run bench -- uploads` runs one of them.
const BENCHES: [string, () => Promise<Record<string, number | string>>][] = [
  ['classification', runClassificationBench],
  ['uploads', runUploadsBench],
  ['requests', runRequestsBench],
  ['bundles', runBundlesBench],
  ['contacts', runContactsBench],
  ['providers', runProvidersBench],
  ['slices', runSlicesBench],
  // Builds, stages and parses a 250,000-row and a 100 MB file, each through create, the workflow's
  // steps and one npm start process: the memory figures.
  ['api-memory', runApiMemoryBench],
];

const only = process.argv[2];
const results: Record<string, number | string> = {};
for (const [name, run] of BENCHES) {
  if (only && only !== name) continue;
  process.stderr.write(`bench ${name}…\n`);
  Object.assign(results, await run());
}
console.log(JSON.stringify(results));
process.exit(0);

export {};
