#!/usr/bin/env node
// One function's whole asset, as lib/service-function.ts's asset bundling builds it:
// `node tools/build-function.mjs <entry> <asset folder>` builds the code-split bundle
// (tools/bundle-lambda.mjs), merges the entry's static chunks into index.mjs
// (tools/merge-initial-chunks.mjs) and S3's lazy chunks into one (tools/merge-lazy-groups.mjs),
// then cuts every source map to the service's own code (tools/trim-source-map.mjs). One process
// for the four steps: a synth builds 19 functions, and each Node start the steps took apart cost
// about a quarter of a second (docs/deployment.md, "How long a synth takes").
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleLambda } from './bundle-lambda.mjs';
import { mergeInitialChunks } from './merge-initial-chunks.mjs';
import { mergeLazyGroups } from './merge-lazy-groups.mjs';
import { mapsUnder, trimSourceMap } from './trim-source-map.mjs';

/** Builds `entry`'s asset into `outdir` (index.mjs, chunks/, their maps). */
export async function buildFunction(entry, outdir) {
  await bundleLambda(entry, outdir);
  await mergeInitialChunks(outdir);
  await mergeLazyGroups(outdir);
  for (const map of mapsUnder(outdir)) writeFileSync(map, trimSourceMap(readFileSync(map, 'utf8')));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [entry, outdir] = process.argv.slice(2);
  if (!entry || !outdir) {
    process.stderr.write('usage: node tools/build-function.mjs <entry> <asset folder>\n');
    process.exit(2);
  }
  await buildFunction(entry, outdir);
}
