import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import type { Plugin } from 'esbuild';
import { BUNDLE_BUILD } from '../../lib/bundle-options';
import { resolveRelativeJs } from '../../tools/deep-imports.mjs';
import { staticClosureOf } from '../../tools/merge-initial-chunks.mjs';
import { tempDir } from '../support/temp-dirs';
import { entryLoad } from '../support/entry-load';

const run = promisify(execFile);

// tools/deep-imports.mjs on a small project shaped as the SDK is: two client packages that import
// from one core package's barrel (a mixed one: re-exports, a star re-export, and code of its own
// with state), the entry holding one client, a lazily loaded module the other.
const FILES: Record<string, string> = {
  'node_modules/@smithy/fake-core/package.json': JSON.stringify({ name: '@smithy/fake-core', type: 'module', sideEffects: false, exports: { './barrel': './dist-es/barrel.js' } }),
  'node_modules/@smithy/fake-core/dist-es/barrel.js': [
    'export { forEntry } from "./for-entry";',
    'export { forLazy, LAZY_ONLY as lazyOnlyMarker } from "./for-lazy";',
    'export * from "./starred";',
    'import { forEntry } from "./for-entry";',
    '/* state of the barrel itself: must exist once */',
    'export const registry = { count: 0 };',
    'export function register(name) { registry.count += 1; return `${name}:${registry.count}:${forEntry()}`; }',
  ].join('\n'),
  'node_modules/@smithy/fake-core/dist-es/for-entry.js': 'export const forEntry = () => "entry-code";\n',
  'node_modules/@smithy/fake-core/dist-es/for-lazy.js': 'export const LAZY_ONLY = "LAZY_ONLY_MARKER";\nexport function forLazy() { return LAZY_ONLY; }\n',
  'node_modules/@smithy/fake-core/dist-es/starred.js': 'export const starred = () => "starred";\n',
  'node_modules/@aws-sdk/fake-a/package.json': JSON.stringify({ name: '@aws-sdk/fake-a', type: 'module', sideEffects: false, module: './index.js' }),
  'node_modules/@aws-sdk/fake-a/index.js': 'import { forEntry, register } from "@smithy/fake-core/barrel";\nexport const clientA = () => `${forEntry()} ${register("a")}`;\n',
  'node_modules/@aws-sdk/fake-b/package.json': JSON.stringify({ name: '@aws-sdk/fake-b', type: 'module', sideEffects: false, module: './index.js' }),
  'node_modules/@aws-sdk/fake-b/index.js':
    'import { forLazy, lazyOnlyMarker as m, starred, register, registry } from "@smithy/fake-core/barrel";\nexport const clientB = () => `${forLazy()} ${m} ${starred()} ${register("b")}`;\nexport { registry };\n',
  'src/lazy.ts': "export { clientB, registry } from '@aws-sdk/fake-b';\n",
  'src/entry.ts': [
    "import { clientA } from '@aws-sdk/fake-a';",
    // Code of the service importing the barrel itself (not rewritten): every name still there, the same state.
    "import { registry, starred } from '@smithy/fake-core/barrel';",
    'export const handler = async () => {',
    '  const a = clientA();',
    "  const lazy = await import('./lazy');",
    '  return { a, b: lazy.clientB(), starred: starred(), sameRegistry: lazy.registry === registry, count: registry.count };',
    '};',
  ].join('\n'),
};

// The namespace rule, on a project shaped as zod is: a package file that imports a barrel as a
// namespace and reads only `ns.name` from it (zod/mini's files and `import * as core from
// "../core/index.js"`), the barrel also re-exporting a generator that only a lazily loaded module
// uses (zod's JSON Schema generator, used by the OpenAPI document's chunk), and a namespace
// re-export (`export * as util`) read through the namespace.
const NAMESPACE_FILES: Record<string, string> = {
  'node_modules/@smithy/fake-ns/package.json': JSON.stringify({ name: '@smithy/fake-ns', type: 'module', sideEffects: false, module: './index.js' }),
  'node_modules/@smithy/fake-ns/index.js': 'export { forEntry } from "./for-entry.js";\nexport * as helpers from "./helpers.js";\nexport { generator } from "./generator.js";\n',
  'node_modules/@smithy/fake-ns/for-entry.js': 'export const forEntry = () => "entry-code";\n',
  'node_modules/@smithy/fake-ns/helpers.js': 'export const helper = () => "helper";\n',
  'node_modules/@smithy/fake-ns/generator.js': 'export const generator = () => "GENERATOR_MARKER";\n',
  'node_modules/@aws-sdk/fake-user/package.json': JSON.stringify({ name: '@aws-sdk/fake-user', type: 'module', sideEffects: false, module: './index.js' }),
  'node_modules/@aws-sdk/fake-user/index.js': 'import * as core from "@smithy/fake-ns";\nexport const user = () => `${core.forEntry()} ${core . helpers.helper()}`;\n',
  // A namespace used as a value is left as it is (it needs every name): the code still sees them all.
  'node_modules/@aws-sdk/fake-whole/package.json': JSON.stringify({ name: '@aws-sdk/fake-whole', type: 'module', sideEffects: false, module: './index.js' }),
  'node_modules/@aws-sdk/fake-whole/index.js': 'import * as core from "@smithy/fake-ns";\nexport const names = () => Object.keys(core).sort().join(",");\n',
  'src/lazy.ts': "import { generator } from '@smithy/fake-ns';\nimport { names } from '@aws-sdk/fake-whole';\nexport const lazy = () => `${generator()} ${names()}`;\n",
  'src/entry.ts': "import { user } from '@aws-sdk/fake-user';\nexport const handler = async () => ({ user: user(), lazy: (await import('./lazy')).lazy() });\n",
};

async function project(plugins: boolean, files: Record<string, string> = FILES): Promise<string> {
  const dir = tempDir('deep-imports-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  const out = join(dir, 'out');
  await build({ ...BUNDLE_BUILD, ...(plugins ? {} : { plugins: [] }), entryPoints: [join(dir, 'src/entry.ts')], outdir: out, logLevel: 'silent' });
  return join(out, 'index.mjs');
}

const initialText = (entry: string): string => [...staticClosureOf(entry)].map((f) => readFileSync(f, 'utf8')).join('\n');
const handlerResult = async (entry: string): Promise<unknown> =>
  JSON.parse((await run(process.execPath, ['--input-type=module', '-e', `const { handler } = await import(${JSON.stringify(pathToFileURL(entry).href)}); console.log(JSON.stringify(await handler()))`])).stdout);

describe('tools/deep-imports.mjs', () => {
  it("keeps a file only a lazily loaded client uses out of what the entry loads, where esbuild alone puts it in (the barrel's fault)", async () => {
    // The same project without the plugin: the barrel, reached by both, pulls the lazy client's file into the entry's load.
    expect(initialText(await project(false))).toContain('LAZY_ONLY_MARKER');
    const entry = await project(true);
    expect(initialText(entry)).not.toContain('LAZY_ONLY_MARKER');
  });

  it('changes nothing the code sees: every name, the barrel\'s own code evaluated once and its state shared', async () => {
    const expected = { a: 'entry-code a:1:entry-code', b: 'LAZY_ONLY_MARKER LAZY_ONLY_MARKER starred b:2:entry-code', starred: 'starred', sameRegistry: true, count: 2 };
    expect(await handlerResult(await project(false))).toEqual(expected);
    expect(await handlerResult(await project(true))).toEqual(expected);
  });

  it('narrows a namespace import of a barrel read only as `ns.name` to those names: the lazy generator stays out of the entry', async () => {
    expect(initialText(await project(false, NAMESPACE_FILES))).toContain('GENERATOR_MARKER');
    const entry = await project(true, NAMESPACE_FILES);
    expect(initialText(entry)).not.toContain('GENERATOR_MARKER');
    const expected = { user: 'entry-code helper', lazy: 'GENERATOR_MARKER forEntry,generator,helpers' };
    expect(await handlerResult(await project(false, NAMESPACE_FILES))).toEqual(expected);
    expect(await handlerResult(entry)).toEqual(expected);
  });

  it("keeps zod's JSON Schema generator out of the console and platform entries (it runs in the OpenAPI documents' lazy chunk only)", async () => {
    for (const entry of ['lambdas/functions/http/console.ts', 'lambdas/functions/http/platform.ts']) {
      const { outputs, initial } = await entryLoad(entry);
      const holding = (files: Iterable<string>) => [...files].filter((f) => Object.entries(outputs[f]!.inputs).some(([input, { bytesInOutput }]) => input.includes('zod/v4/core/json-schema-processors') && bytesInOutput > 0));
      expect(holding(Object.keys(outputs)).length, `${entry}: the generator is in the bundle`).toBeGreaterThan(0);
      expect(holding(initial), `${entry}: the generator is in the entry's load`).toEqual([]);
    }
  });

  it("finds a relative import's file where esbuild does, for every relative import of a function's bundle it answers without asking esbuild", async () => {
    const found = { answered: 0, asked: 0, differing: [] as string[] };
    // Beside the plugin, every relative import esbuild meets is resolved both ways.
    const compare: Plugin = {
      name: 'compare-resolution',
      setup(b) {
        b.onResolve({ filter: /^\.\.?\// }, async (args) => {
          if (args.pluginData === 'compare' || args.namespace !== 'file') return undefined;
          found.asked++;
          const mine = resolveRelativeJs(args.path, args.resolveDir);
          if (mine === undefined) return undefined;
          found.answered++;
          const r = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'compare' });
          if (r.errors.length || r.path !== mine) found.differing.push(`${args.resolveDir} ${args.path}: ${mine} against ${r.path}`);
          return undefined;
        });
      },
    };
    await build({ ...BUNDLE_BUILD, plugins: [compare, ...(BUNDLE_BUILD.plugins ?? [])], entryPoints: ['lambdas/functions/http/uploads.ts'], outdir: tempDir('deep-imports-resolve-'), write: false, logLevel: 'silent' });
    expect(found.differing).toEqual([]);
    // Most of the SDK's imports are relative: the check covers them, not a handful.
    expect(found.answered).toBeGreaterThan(500);
    expect(found.answered).toBeLessThan(found.asked + 1);
  });
});
