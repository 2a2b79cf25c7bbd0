// One Lambda-like process running an upload's workflow steps against the parent's embedded
// table and file store (the environment points there): Prepare, each ClassifyChunk, Finalize.
// Prints the time, the process's own peak memory (maxRSS) and the CSV parses and normalizations it did.
process.env.POWERTOOLS_LOG_LEVEL ??= 'WARN';
const uploadId = process.argv[2]!;
const { prepare } = await import('../lambdas/uploads/pipeline/prepare');
const { classifyChunk } = await import('../lambdas/uploads/pipeline/classify-chunk');
const { finalize } = await import('../lambdas/uploads/pipeline/finalize');
const { systemNet } = await import('../lambdas/platform/net/outbound');
const { csvParseCount } = await import('../lambdas/uploads/csv');
const { normalizationCount } = await import('../lambdas/classification/normalize');
const { mapConcurrent } = await import('../lambdas/classification/resilience');

const rssBeforeKb = process.resourceUsage().maxRSS;
const t = performance.now();
const { chunks } = await prepare({ upload_id: uploadId });
// The state machine's Map runs 4 chunks at once.
await mapConcurrent(chunks, 4, (chunk) => classifyChunk({ upload_id: uploadId, chunk }));
// No delivery queue: as in a step whose organization has no webhook endpoint to deliver to.
const { status } = await finalize({ deliveryQueue: null, net: systemNet() }, { upload_id: uploadId, chunks });
const ms = performance.now() - t;
console.log(JSON.stringify({ ms, status, maxRssKb: process.resourceUsage().maxRSS, rssBeforeKb, csvParses: csvParseCount(), normalizations: normalizationCount() }));
process.exit(0);
export {};
