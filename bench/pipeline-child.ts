// One Lambda-like process running one workflow step of an upload against the parent's embedded
// table and file store (the environment points there): `prepare`, `classify <chunk>…` (one
// ClassifyChunk container taking its chunks one after another) or `finalize <chunk>…`. Runs as a
// bundle (bundle-child.ts), as the function does. Prints the step's answer, its time, the
// process's own peak memory and the CSV parses and normalizations it did.
// Peak memory is the address space's high-water mark (VmHWM): getrusage's maxRSS survives exec on
// Linux, so a process spawned by the large bench process would start with that one's peak.
import { readFileSync } from 'node:fs';

process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const [step, uploadId, ...rest] = process.argv.slice(2) as [string, string, ...string[]];
const chunks = rest.map(Number);
const { prepare } = await import('../lambdas/uploads/pipeline/prepare');
const { classifyChunk } = await import('../lambdas/uploads/pipeline/classify-chunk');
const { finalize } = await import('../lambdas/uploads/pipeline/finalize');
const { providerOncePerConfig } = await import('../lambdas/classification');
const { systemNet } = await import('../lambdas/platform/net/outbound');
const { csvParseCount } = await import('../lambdas/uploads/csv');
const { normalizationCount } = await import('../lambdas/classification/normalize');

const peakKb = (): number => {
  const hwm = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
  return hwm ? Number(hwm[1]) : process.resourceUsage().maxRSS;
};

const rssBeforeKb = peakKb();
const t = performance.now();
let answer: unknown;
if (step === 'prepare') answer = await prepare({ upload_id: uploadId });
else if (step === 'classify') {
  // One container: one provider for all its chunks, as the AWS root builds it.
  const ports = { provider: providerOncePerConfig() };
  for (const chunk of chunks) answer = await classifyChunk(ports, { upload_id: uploadId, chunk });
}
else if (step === 'finalize') {
  // No delivery queue: as in a step whose organization has no webhook endpoint to deliver to.
  answer = await finalize({ deliveryQueue: null, net: systemNet() }, { upload_id: uploadId, chunks });
} else throw new Error(`unknown step ${step}`);
const ms = performance.now() - t;
console.log(JSON.stringify({ answer, ms, maxRssKb: peakKb(), rssBeforeKb, csvParses: csvParseCount(), normalizations: normalizationCount() }));
process.exit(0);
