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

/** The file holding the service's program, beside the start file `outfile` that loads it. */
const programOf = (outfile: string): string => outfile.replace(/\.mjs$/, '.program.mjs');

/** Every file buildLocalBundle writes for `outfile` (to remove a bundle built for one run). */
export const localBundleFiles = (outfile: string): string[] => [outfile, programOf(outfile), `${programOf(outfile)}.map`];

/**
 * The project's code of `entry` in one file, its packages left in node_modules (what `npm install`
 * put there, loaded by Node as they are), so the running process holds no TypeScript loader nor
 * the transformed sources it keeps: under tsx the runtime idled at 163–182 MB against 157–163 MB
 * bundled, and peaked at 403–488 MB against 381–405 MB through a 100 MB upload (docs/performance.md,
 * "The local process's memory"). The source map beside it
 * (LOCAL_NODE_ARGS) puts stack frames in the TypeScript sources; it cost no measurable memory.
 *
 * `outfile` itself is a start file of a few lines: it starts the process again with glibc's
 * malloc settings (local/allocator-settings.ts) and only then imports the program
 * (`<name>.program.mjs`), so the packages the program imports are loaded once, after the exec
 * (with them in one file, the packages' imports come first and were loaded twice: about a second
 * more to start).
 *
 * Written under temporary names and renamed into place, the program before the start file, so a
 * second `npm start` building at the same time never loads a half-written file.
 */
export async function buildLocalBundle(entry = 'bin/local.ts', outfile = join(LOCAL_BUNDLE_DIR, `${basename(entry, '.ts')}.mjs`)): Promise<string> {
  mkdirSync(resolve(outfile, '..'), { recursive: true });
  const common = { bundle: true, platform: 'node', format: 'esm', target: 'node20', packages: 'external', write: false, logLevel: 'warning' } as const;
  const [program, start] = await Promise.all([
    build({ ...common, entryPoints: [resolve(ROOT, entry)], outfile: programOf(outfile), sourcemap: 'linked', sourcesContent: false }),
    build({
      ...common,
      entryPoints: [resolve(ROOT, 'local/start-with-allocator-settings.ts')],
      outfile,
      footer: { js: `await import(${JSON.stringify(`./${basename(programOf(outfile))}`)});` },
    }),
  ]);
  const files = [...program.outputFiles, ...start.outputFiles];
  const suffix = `.${process.pid}.partial`;
  try {
    for (const file of files) writeFileSync(file.path + suffix, file.contents);
    for (const file of files) renameSync(file.path + suffix, file.path);
  } finally {
    for (const file of files) rmSync(file.path + suffix, { force: true });
  }
  // The map a one-file build left beside `outfile` (before the start file): nothing points at it now.
  rmSync(`${outfile}.map`, { force: true });
  return outfile;
}

// `tsx bin/local-bundle.ts` (the first half of `npm start`): builds .local-build/local.mjs.
if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) await buildLocalBundle();
