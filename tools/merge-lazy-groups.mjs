#!/usr/bin/env node
// Lazy chunks that load together, in one file. Each S3 command the service calls is a module of its
// own (lambdas/platform/aws/sdk/), so that a function carries only the commands it calls
// (test/deployed/least-privilege.test.ts), and esbuild gives each a chunk of its own, plus one
// for each set of them that shares code: a request that reads, checks and writes an object loaded
// the client, three one-line command chunks and five or six shared ones, 3–4 M instructions of
// resolution, reading, source map and linking each, over what the same code costs in one file
// (docs/performance.md, "Cold imports, eleventh step"). After esbuild and
// tools/merge-initial-chunks.mjs, this step bundles the chunks of a group (GROUPS: the `import()`
// targets whose chunk names match, and the shared chunks only they import) into one chunk,
// `chunks/<group>.mjs`, exporting every name each of them exported, and points each `import()` of
// a member at it. A function's asset keeps exactly the commands it held, in fewer files. Run by
// lib/service-function.ts after tools/merge-initial-chunks.mjs (`node tools/merge-lazy-groups.mjs
// <asset folder>`), and by the bench. A group it cannot merge safely is left as esbuild wrote it.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { modulesUnder, placeMerged, REBUNDLE, staticImports } from './merge-initial-chunks.mjs';

/** Groups by the chunk names of their `import()` targets (esbuild's `chunks/[name]-[hash]`). */
export const GROUPS = {
  // S3's client, its commands and its two signers (lambdas/platform/aws/sdk/s3-*.ts).
  s3: /^s3-[a-z-]+-[A-Z0-9]{8}\.mjs$/,
};

/** Every path to another module of the output, as esbuild writes it: `from"…"`, `import("…")`, `import"…"`. */
const NAMED = /(?:from|import\(|import)\s*"(\.\.?\/[^"]+\.mjs)"/g;
/** A module's exports, as esbuild writes them: `export{a as B,C};`, or the same `from` a module. */
const EXPORTS = /export\s*\{([^}]*)\}/g;

/** The names a module exports; undefined when it re-exports a whole module (`export*`), whose names its text does not give. */
function exportNames(text) {
  if (/export\s*\*/.test(text)) return undefined;
  const names = [];
  for (const m of text.matchAll(EXPORTS)) for (const b of m[1].split(',')) if (b.trim()) names.push(b.trim().split(/\s+as\s+/).pop());
  return names;
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `dir/index.mjs` and every module it names, and they name, in the asset. */
function reachable(dir) {
  const reached = new Set();
  const visit = (file) => {
    if (reached.has(file) || !existsSync(file)) return;
    reached.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(NAMED)) visit(resolve(dirname(file), m[1]));
  };
  visit(resolve(dir, 'index.mjs'));
  return reached;
}

/**
 * Merges each group's chunks of `dir/chunks/` into `dir/chunks/<group>.mjs`. esbuild also writes a
 * chunk for an `import()` whose code it then drops as unused, which no module names: those are
 * removed first, so that a function does not load a command it never calls with the ones it does.
 * Returns, for each chunk merged, the file it is now part of, and the chunks removed (a group left
 * as it was says why on stderr).
 * @param {string} dir
 * @returns {Promise<{ mergedInto: Map<string, string>, removed: string[] }>}
 */
export async function mergeLazyGroups(dir) {
  const mergedInto = new Map();
  const chunksDir = resolve(dir, 'chunks');
  if (!existsSync(chunksDir)) return { mergedInto, removed: [] };
  const reached = reachable(dir);
  const removed = modulesUnder(chunksDir).filter((f) => !reached.has(f));
  for (const file of removed) {
    rmSync(file);
    rmSync(`${file}.map`, { force: true });
  }
  for (const [group, pattern] of Object.entries(GROUPS)) {
    const all = modulesUnder(resolve(dir));
    const texts = new Map(all.map((f) => [f, readFileSync(f, 'utf8')]));
    const members = all.filter((f) => dirname(f) === chunksDir && pattern.test(basename(f)));
    if (members.length < 2) continue;
    const target = join(chunksDir, `${group}.mjs`);
    const leave = (why) => process.stderr.write(`merge-lazy-groups: ${group} in ${dir} left as it was: ${why}\n`);
    if (existsSync(target)) {
      leave(`${relative(dir, target)} exists`);
      continue;
    }

    // The shared chunks only the group imports go with it.
    const imports = new Map(all.map((f) => [f, staticImports(f)]));
    const importers = new Map(all.map((f) => [f, new Set()]));
    for (const f of all) for (const dep of imports.get(f)) importers.get(dep)?.add(f);
    const inside = new Set(members);
    for (let grew = true; grew; ) {
      grew = false;
      for (const f of all) {
        if (inside.has(f) || basename(f) === 'index.mjs' || !basename(f).startsWith('chunk-')) continue;
        const by = importers.get(f);
        if (by.size > 0 && [...by].every((i) => inside.has(i))) {
          inside.add(f);
          grew = true;
        }
      }
    }
    const outside = all.filter((f) => !inside.has(f));
    // A module of the group imported statically from outside, or a shared one named there at all, would load twice.
    const shared = [...inside].filter((f) => !members.includes(f));
    const named = outside.filter((f) => imports.get(f).some((d) => inside.has(d)) || shared.some((m) => texts.get(f).includes(basename(m))));
    if (named.length > 0) {
      leave(`${named.map((f) => relative(dir, f)).join(', ')} name a chunk of the group otherwise than by import()`);
      continue;
    }
    const names = members.map((m) => exportNames(texts.get(m)));
    const exported = names.flatMap((n) => n ?? []);
    if (names.includes(undefined) || new Set(exported).size !== exported.length) {
      leave('its modules\' names are not all known, or two of them export the same name');
      continue;
    }

    // Each import() of a member now names the group's file; the path is shorter, so spaces after
    // the string keep the rest of the line in its columns and the module's map right.
    const rewritten = new Map();
    for (const f of outside) {
      let text = texts.get(f);
      for (const m of members) {
        const path = new RegExp(`"((?:\\.\\.?/)(?:[^"/]*/)*)${escape(basename(m))}"`, 'g');
        text = text.replace(path, (whole, prefix) => {
          const now = `"${prefix}${group}.mjs"`;
          return now + ' '.repeat(whole.length - now.length);
        });
      }
      if (text !== texts.get(f)) rewritten.set(f, text);
    }
    const stillNamed = outside.filter((f) => members.some((m) => (rewritten.get(f) ?? texts.get(f)).includes(basename(m))));
    if (stillNamed.length > 0) {
      leave(`${stillNamed.map((f) => relative(dir, f)).join(', ')} name a chunk of the group otherwise than by import()`);
      continue;
    }

    // Written beside the chunks under another name, so that the sources its map names (relative paths) stay right.
    const merged = join(chunksDir, `${group}.merged.mjs`);
    try {
      const result = await build({
        ...REBUNDLE,
        stdin: { contents: members.map((m) => `export * from ${JSON.stringify(m)};`).join('\n'), resolveDir: chunksDir, sourcefile: `${group}-group.mjs`, loader: 'js' },
        outfile: merged,
        metafile: true,
        plugins: [
          {
            name: 'outside-stays',
            setup(b) {
              // A module outside the group stays a file of its own, named from chunks/.
              b.onResolve({ filter: /\.mjs$/ }, (args) => {
                const path = resolve(args.resolveDir, args.path);
                if (inside.has(path)) return undefined;
                const from = relative(chunksDir, path).split('\\').join('/');
                return { path: from.startsWith('.') ? from : `./${from}`, external: true };
              });
            },
          },
        ],
      });
      const out = Object.entries(result.metafile.outputs).find(([f]) => f.endsWith('.merged.mjs'))?.[1];
      if (!out || out.exports.length !== exported.length || !exported.every((n) => out.exports.includes(n))) {
        leave('the merged module does not export every name its modules did');
        continue;
      }
      for (const [file, text] of rewritten) writeFileSync(file, text);
      for (const file of inside) {
        rmSync(file);
        rmSync(`${file}.map`, { force: true });
        mergedInto.set(file, target);
      }
      placeMerged(merged, target);
    } finally {
      rmSync(merged, { force: true });
      rmSync(`${merged}.map`, { force: true });
    }
  }
  return { mergedInto, removed };
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [dir] = process.argv.slice(2);
  if (!dir) throw new Error('usage: merge-lazy-groups.mjs <asset folder>');
  await mergeLazyGroups(dir);
}
