#!/usr/bin/env node
// A Lambda bundle's source map, cut down to the service's own code. With NODE_OPTIONS
// --enable-source-maps, Node reads and indexes a bundle's whole map when it loads the bundle, in
// every cold start: the console API's 3.4 MB map (706 sources, their text included) cost 52 ms of
// CPU on top of a 214 ms import, where a map of the service's own 106 sources, without their text,
// costs 9 ms (docs/performance.md, "Source maps"). Stack frames in the service's code still
// name their file and line; frames inside dependencies keep the bundle's own position.
// Run by lib/service-function.ts after esbuild (`node tools/trim-source-map.mjs <asset folder>`: the
// entry's map and its chunks')
// and used by the bench, so that what is measured is what is deployed.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { decode, encode } from '@jridgewell/sourcemap-codec';

/**
 * True for a source that is the service's own code (kept), false for a dependency's. The service's
 * code is under lambdas/; a dependency that ships its own source maps (saxes) names
 * its sources by its own layout (`../../src/saxes.ts`), without node_modules in the path.
 */
const isOwn = (source) => !/(^|\/)node_modules\//.test(source) && /(^|[/:])lambdas\//.test(source);

/**
 * The map (JSON text) keeping only the segments that point into the service's own sources, with
 * sources and names renumbered; no `sourcesContent`. Positions of kept segments are unchanged.
 * @param {string} text
 * @returns {string}
 */
export function trimSourceMap(text) {
  const map = JSON.parse(text);
  if (map.version !== 3 || typeof map.mappings !== 'string' || !Array.isArray(map.sources)) throw new Error('not a version 3 source map with mappings');
  const sources = [];
  const names = [];
  const sourceIndex = new Map();
  const nameIndex = new Map();
  const renumber = (index, from, into, table) => {
    let next = index.get(from);
    if (next === undefined) {
      next = into.length;
      index.set(from, next);
      into.push(table[from]);
    }
    return next;
  };
  // A dropped segment becomes a column-only one (no source), so that the code it covered maps to
  // nothing instead of to the service's code just before it on the same (minified) line.
  const lines = decode(map.mappings).map((line) => {
    const out = [];
    for (const segment of line) {
      if (segment.length > 1 && isOwn(map.sources[segment[1]])) {
        const kept = [segment[0], renumber(sourceIndex, segment[1], sources, map.sources), segment[2], segment[3]];
        if (segment.length === 5) kept.push(renumber(nameIndex, segment[4], names, map.names));
        out.push(kept);
      } else if (out.length === 0 || out[out.length - 1].length > 1) {
        out.push([segment[0]]);
      }
    }
    return out;
  });
  return JSON.stringify({ version: 3, ...(map.file ? { file: map.file } : {}), sourceRoot: map.sourceRoot ?? '', sources, names, mappings: encode(lines) });
}

/**
 * Every source map in `dir` and its subfolders (a bundle's entry and its chunks, lib/bundle-options.ts).
 * @param {string} dir
 * @returns {string[]}
 */
export function mapsUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.map'))
    .map((name) => join(dir, name));
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const targets = process.argv.slice(2);
  if (targets.length === 0) {
    process.stderr.write('usage: node tools/trim-source-map.mjs <bundle.mjs.map | asset folder>...\n');
    process.exit(2);
  }
  for (const target of targets) {
    for (const file of statSync(target).isDirectory() ? mapsUnder(target) : [target]) writeFileSync(file, trimSourceMap(readFileSync(file, 'utf8')));
  }
}
