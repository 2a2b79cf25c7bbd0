import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { BUNDLE_BUILD } from '../../lib/bundle-options';
import { staticClosureOf } from '../../tools/merge-initial-chunks.mjs';
import { tempDir } from '../support/temp-dirs';

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

async function project(plugins: boolean): Promise<string> {
  const dir = tempDir('deep-imports-');
  for (const [name, text] of Object.entries(FILES)) {
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
});
