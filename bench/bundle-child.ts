import { build } from 'esbuild';
import { BUNDLE_ALIASES } from '../lib/bundle-aliases';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A bench script bundled as lib/service-function.ts bundles a function (esbuild, ESM, node22,
 * minified), so that the process that runs it holds what a Lambda holds: no TypeScript loader.
 */
export async function bundleChild(script: string): Promise<string> {
  const outfile = join(mkdtempSync(join(tmpdir(), 'bench-child-')), 'child.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL(script, import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    minify: true,
    mainFields: ['module', 'main'],
    alias: BUNDLE_ALIASES,
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
  });
  return outfile;
}
