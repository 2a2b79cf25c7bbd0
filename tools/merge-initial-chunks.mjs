#!/usr/bin/env node
// A code-split Lambda bundle with what its cold start loads in one module. esbuild's code
// splitting gives every set of entry points (the entry and each `import()` target) that reaches a
// file a chunk of its own, so the entry imports statically every chunk it shares with some lazy
// module: 10 to 30 files for the API functions. Each ES module a cold start loads costs its own
// resolution, read, compile and link (about 0.4 ms of CPU for an empty module on this machine),
// apart from its code (docs/performance.md, "Lazy cold starts, third step"). This step bundles the
// entry and the chunks it imports statically into `index.mjs` again (esbuild, reading their source
// maps), exporting under new names what the lazy chunks import from them, and points those imports
// at `index.mjs` (`../index.mjs` from `chunks/`), so a module is still evaluated once: Lambda's
// runtime imports the handler's module by its file URL (file:///var/task/index.mjs, as
// test/deployed/lambda-runtime-shim.mjs does), the URL a chunk's `../index.mjs` resolves to.
// Run by lib/service-function.ts after esbuild and before tools/trim-source-map.mjs
// (`node tools/merge-initial-chunks.mjs <asset folder>`), and by the bench, so that what is
// measured is what is deployed. An asset it cannot merge safely is left as esbuild wrote it.
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Static imports and re-exports of another chunk, as esbuild writes them (minified). */
const STATIC_FROM = /(import|export)\s*\{([^}]*)\}\s*from\s*"(\.\.?\/[^"]+\.mjs)"\s*;?|import\s*"(\.\.?\/[^"]+\.mjs)"\s*;?/g;
const SOURCE_MAP_COMMENT = /\n\/\/# sourceMappingURL=[^\n]*\n?$/;

/** The files a module imports statically (paths resolved), from its text. */
export function staticImports(file) {
  const text = readFileSync(file, 'utf8');
  const found = [];
  for (const m of text.matchAll(STATIC_FROM)) found.push(resolve(dirname(file), m[3] ?? m[4]));
  return found;
}

/** `file` and every module it imports statically, in the asset. */
export function staticClosureOf(file, into = new Set()) {
  if (into.has(file)) return into;
  into.add(file);
  for (const dep of staticImports(file)) if (existsSync(dep)) staticClosureOf(dep, into);
  return into;
}

/** Every module (.mjs) under `dir`, in its subfolders too. */
export const modulesUnder = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? modulesUnder(join(dir, e.name)) : e.name.endsWith('.mjs') ? [join(dir, e.name)] : []));

/** How a merged module is bundled again from esbuild's output: as lib/bundle-options.ts builds it, with its maps read and written. */
export const REBUNDLE = { bundle: true, platform: 'node', format: 'esm', target: 'node22', minify: true, sourcemap: true, sourcesContent: false, logLevel: 'silent' };

/** Moves the module built at `merged` (and its map) to `target`, its map comment and map's `file` renamed. */
export function placeMerged(merged, target) {
  const name = basename(target);
  const text = readFileSync(merged, 'utf8').replace(/\/\/# sourceMappingURL=[^\n]*\.map(\s*)$/, `//# sourceMappingURL=${name}.map$1`);
  writeFileSync(target, text);
  writeFileSync(`${target}.map`, JSON.stringify({ ...JSON.parse(readFileSync(`${merged}.map`, 'utf8')), file: name }));
}

/** A name for binding `name` of chunk `file` in the merged module (chunk names are unique in an asset). */
const mergedName = (file, name) => `_${basename(file, '.mjs').replace(/[^A-Za-z0-9_$]/g, '_')}_${name}`;

/**
 * Merges `dir/index.mjs` and the chunks it imports statically into `dir/index.mjs`; returns the
 * number of modules merged (0: nothing to merge, or left as it was, with the reason on stderr).
 * Each merged module keeps the banner esbuild gave it (lib/bundle-options.ts: its own `require`).
 * @param {string} dir
 * @returns {Promise<number>}
 */
export async function mergeInitialChunks(dir) {
  const entry = resolve(dir, 'index.mjs');
  const initial = staticClosureOf(entry);
  initial.delete(entry);
  if (initial.size === 0) return 0;
  const lazy = modulesUnder(resolve(dir)).filter((f) => f !== entry && !initial.has(f));

  // What each lazy module takes from the merged ones, and its text with those imports pointed at index.mjs.
  const wanted = new Map([...initial].map((f) => [f, new Set()]));
  const rewritten = new Map();
  for (const file of lazy) {
    const text = readFileSync(file, 'utf8');
    const added = [];
    const toEntry = relative(dirname(file), entry).split('\\').join('/');
    const body = text.replace(STATIC_FROM, (statement, kind, names, from, bare) => {
      const target = resolve(dirname(file), from ?? bare);
      if (!initial.has(target)) return statement;
      if (bare) added.push(`import"${toEntry.startsWith('.') ? toEntry : `./${toEntry}`}";`);
      else {
        const bindings = names.split(',').map((b) => b.trim()).filter(Boolean).map((b) => {
          const [name, alias] = b.split(/\s+as\s+/);
          wanted.get(target).add(name);
          return `${mergedName(target, name)} as ${alias ?? name}`;
        });
        added.push(`${kind}{${bindings.join(',')}}from"${toEntry.startsWith('.') ? toEntry : `./${toEntry}`}";`);
      }
      // Blanked to its length: the rest of the line keeps its columns, so the module's map holds.
      return ' '.repeat(statement.length);
    });
    if (added.length === 0) continue;
    const unique = [...new Set(added)];
    added.length = 0;
    added.push(...unique);
    // Imports are hoisted wherever they stand: added after the code, before the map's comment, on a line of their own.
    const at = body.search(SOURCE_MAP_COMMENT);
    rewritten.set(file, at < 0 ? `${body}\n${added.join('')}\n` : `${body.slice(0, at)}\n${added.join('')}${body.slice(at)}`);
  }

  // Anything else naming a merged chunk (a dynamic import of one, an import esbuild wrote otherwise) would load it twice.
  const stillNamed = [...lazy].filter((f) => [...initial].some((c) => (rewritten.get(f) ?? readFileSync(f, 'utf8')).includes(basename(c))));
  if (stillNamed.length > 0) {
    process.stderr.write(`merge-initial-chunks: ${dir} left as it was: ${stillNamed.map((f) => relative(dir, f)).join(', ')} name a chunk of the entry otherwise than by a static import\n`);
    return 0;
  }

  // Written beside index.mjs, so that the sources its map names (relative paths) stay right.
  const merged = join(resolve(dir), 'index.merged.mjs');
  try {
    const lines = [`export * from ${JSON.stringify(entry)};`];
    for (const [file, names] of wanted) if (names.size > 0) lines.push(`export{${[...names].map((n) => `${n} as ${mergedName(file, n)}`).join(',')}}from${JSON.stringify(file)};`);
    const lazySet = new Set(lazy);
    await build({
      ...REBUNDLE,
      stdin: { contents: lines.join('\n'), resolveDir: resolve(dir), sourcefile: 'merged-entry.mjs', loader: 'js' },
      outfile: merged,
      plugins: [
        {
          name: 'lazy-chunks-stay',
          setup(b) {
            // A lazy module stays a file of its own, named from the asset's root where index.mjs is.
            b.onResolve({ filter: /\.mjs$/ }, (args) => {
              const path = resolve(args.resolveDir, args.path);
              if (!lazySet.has(path)) return undefined;
              return { path: `./${relative(resolve(dir), path).split('\\').join('/')}`, external: true };
            });
          },
        },
      ],
    });
    for (const [file, text] of rewritten) writeFileSync(file, text);
    for (const file of initial) {
      rmSync(file);
      rmSync(`${file}.map`, { force: true });
    }
    placeMerged(merged, entry);
    return initial.size + 1;
  } finally {
    rmSync(merged, { force: true });
    rmSync(`${merged}.map`, { force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: merge-initial-chunks.mjs <asset folder>');
  await mergeInitialChunks(dir);
}
