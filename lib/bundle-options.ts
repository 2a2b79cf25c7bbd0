import type { BuildOptions } from 'esbuild';
import { BUNDLE_ALIASES } from './bundle-aliases';

/**
 * How every Lambda bundle is built, shared by lib/service-function.ts (the deployed assets) and the
 * bench (bench/bundles.ts, bench/bundle-child.ts), so that what is measured is what is deployed:
 * esbuild, ESM for Node 22, minified, a source map without sources' text (cut to the service's own
 * code afterwards by tools/trim-source-map.mjs), the SDK bundled with the aliases of
 * lib/bundle-aliases.ts.
 *
 * Code splitting: a module the code loads with `import()` (an SDK client a request path rarely
 * uses, docs/performance.md "Cold starts") becomes a chunk of its own under `chunks/`, loaded on
 * first use; a cold start loads `index.mjs` and what it imports statically. Chunks sit in the
 * same asset folder as `index.mjs`, so each function's zip carries them.
 */
export const BUNDLE_BUILD = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  mainFields: ['module', 'main'],
  sourcemap: true,
  sourcesContent: false,
  splitting: true,
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  // ESM bundles still meet CommonJS dependencies that call require().
  banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
  alias: BUNDLE_ALIASES,
  logLevel: 'warning',
} satisfies BuildOptions;

/** The same build as esbuild command-line arguments (what lib/service-function.ts runs), writing into `outdir`. */
export function bundleCliArgs(entry: string, outdir: string): string[] {
  const b = BUNDLE_BUILD;
  return [
    JSON.stringify(entry),
    '--bundle',
    `--platform=${b.platform}`,
    `--format=${b.format}`,
    `--target=${b.target}`,
    '--minify',
    `--main-fields=${b.mainFields.join(',')}`,
    '--sourcemap',
    '--sources-content=false',
    '--splitting',
    `--outdir=${JSON.stringify(outdir)}`,
    `--entry-names=${b.entryNames}`,
    `--chunk-names=${b.chunkNames}`,
    ...Object.entries(b.outExtension).map(([from, to]) => `--out-extension:${from}=${to}`),
    `--banner:js=${JSON.stringify(b.banner.js)}`,
    ...Object.entries(b.alias).map(([from, to]) => `--alias:${from}=${JSON.stringify(to)}`),
    `--log-level=${b.logLevel}`,
  ];
}
