// How every Lambda bundle is built, in one place: by lib/service-function.ts's asset build
// (tools/build-function.mjs, which then merges chunks and cuts the maps) and by the bench and the
// tests through lib/bundle-options.ts, so that what is measured is what is deployed. esbuild's
// JavaScript API rather than its command line, because the build takes a plugin
// (tools/deep-imports.mjs).
import { build } from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deepImports } from './deep-imports.mjs';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Modules every Lambda bundle takes from elsewhere (esbuild `alias`). The SDK's default credential
 * chain becomes the environment alone: lambdas/platform/aws/env-credentials.ts says why.
 */
export const BUNDLE_ALIASES = {
  '@aws-sdk/credential-provider-node': join(ROOT, 'lambdas/platform/aws/env-credentials.ts'),
};

/**
 * esbuild, ESM for Node 22, minified, a source map without sources' text (cut to the service's own
 * code afterwards by tools/trim-source-map.mjs), the SDK bundled with the aliases above, its
 * imports of its own barrel modules pointed at the files that define each name
 * (tools/deep-imports.mjs).
 *
 * Code splitting: a module the code loads with `import()` (an SDK client a request path rarely
 * uses, docs/performance.md "Cold starts") becomes a chunk of its own under `chunks/`, loaded on
 * first use; a cold start loads `index.mjs` and what it imports statically. Chunks sit in the
 * same asset folder as `index.mjs`, so each function's zip carries them.
 * @satisfies {import('esbuild').BuildOptions}
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
  plugins: [deepImports()],
  logLevel: 'warning',
};

/** Builds `entry` into `outdir` (index.mjs and chunks/) as every deployed function is built. */
export async function bundleLambda(entry, outdir) {
  await build({ ...BUNDLE_BUILD, entryPoints: [entry], outdir });
}
