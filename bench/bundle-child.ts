import { build } from 'esbuild';
import { BUNDLE_BUILD } from '../lib/bundle-options';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A bench script bundled as lib/service-function.ts bundles a function (lib/bundle-options.ts:
 * esbuild, ESM, node22, minified, code-split), so that the process that runs it holds what a
 * Lambda holds: no TypeScript loader, and the SDK clients it rarely uses in chunks loaded on first
 * use. Returns the entry module (its chunks sit beside it).
 */
export async function bundleChild(script: string): Promise<string> {
  const outdir = mkdtempSync(join(tmpdir(), 'bench-child-'));
  await build({ ...BUNDLE_BUILD, entryPoints: [fileURLToPath(new URL(script, import.meta.url))], outdir, sourcemap: false, logLevel: 'silent' });
  return join(outdir, 'index.mjs');
}
