import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '..');

/**
 * Where `npm start` runs its program from: bin/local.ts bundled into one ESM file, one folder
 * below the project root as bin/ and local/ are, so the paths the runtime builds from its own
 * location (statemachines/, web/dist/) resolve as they do from the sources. Not in git.
 */
export const LOCAL_BUNDLE_DIR = join(ROOT, '.local-build');

/**
 * What `npm start` runs the bundle with (package.json "start"; a test holds the two equal): stack
 * frames in the TypeScript sources, `gc` for the workflow's collections between steps
 * (local/heap-budget.ts), and a young generation of 2 × 4 MB instead of Node's 2 × 16 MB, which
 * V8 keeps committed whether used or not: the idle process 12–18 MB smaller, and every moment
 * after it, at no CPU cost measured (docs/performance.md, "The local process's memory, sixth
 * round").
 */
export const LOCAL_NODE_ARGS = ['--enable-source-maps', '--expose-gc', '--max-semi-space-size=4'];

/**
 * The project's code of `entry` in one file, its packages left in node_modules (what `npm install`
 * put there, loaded by Node as they are), so the running process holds no TypeScript loader nor
 * the transformed sources it keeps: under tsx the runtime idled at 163–182 MB against 157–163 MB
 * bundled, and peaked at 403–488 MB against 381–405 MB through a 100 MB upload (docs/performance.md,
 * "The local process's memory"). The source map beside it
 * (LOCAL_NODE_ARGS) puts stack frames in the TypeScript sources; it cost no measurable memory.
 *
 * Written under a temporary name and renamed into place, so a second `npm start` building at the
 * same time never loads a half-written file.
 */
export async function buildLocalBundle(entry = 'bin/local.ts', outfile = join(LOCAL_BUNDLE_DIR, `${basename(entry, '.ts')}.mjs`)): Promise<string> {
  mkdirSync(resolve(outfile, '..'), { recursive: true });
  const result = await build({
    entryPoints: [resolve(ROOT, entry)],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked',
    sourcesContent: false,
    write: false,
    logLevel: 'warning',
  });
  const suffix = `.${process.pid}.partial`;
  try {
    for (const file of result.outputFiles) writeFileSync(file.path + suffix, file.contents);
    for (const file of result.outputFiles) renameSync(file.path + suffix, file.path);
  } finally {
    for (const file of result.outputFiles) rmSync(file.path + suffix, { force: true });
  }
  return outfile;
}

// `tsx bin/local-bundle.ts` (the first half of `npm start`): builds .local-build/local.mjs.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await buildLocalBundle();
