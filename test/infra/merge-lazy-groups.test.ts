import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { BUNDLE_BUILD } from '../../lib/bundle-options';
import { mergeInitialChunks, staticClosureOf } from '../../tools/merge-initial-chunks.mjs';
import { mergeLazyGroups } from '../../tools/merge-lazy-groups.mjs';
import { tempDir } from '../support/temp-dirs';

const run = promisify(execFile);

// tools/merge-lazy-groups.mjs on a small code-split bundle built with the service's options
// (lib/bundle-options.ts) and merged as deployed (tools/merge-initial-chunks.mjs first): three
// lazily loaded modules of the S3 group that share state with each other (a module only they
// import), with the entry (a counter) and with a lazy module outside the group (a module both
// import), so esbuild writes shared chunks of each kind.
const SOURCES: Record<string, string> = {
  'counter.ts': 'export let count = 0;\nexport function bump(): number { count += 1; return count; }\n',
  'group-state.ts': "import { bump } from './counter';\nexport const seen: string[] = [];\nexport const note = (s: string): number => { seen.push(s); return bump(); };\n",
  'with-other.ts': 'export const tag = (s: string): string => `<${s}>`;\n',
  'fails.ts': "export function fails(): never { throw new Error('thrown in fails.ts'); }\n",
  's3-client.ts': "import { note } from './group-state';\nimport { tag } from './with-other';\nexport const client = (): string => tag(`client:${note('client')}`);\n",
  's3-get.ts': "import { note, seen } from './group-state';\nimport { fails } from './fails';\nexport const get = (): string => `get:${note('get')}:${seen.join('+')}`;\nexport const getFails = (): never => fails();\n",
  's3-put.ts': "import { note } from './group-state';\nexport const put = (): number => note('put');\n",
  'other.ts': "import { tag } from './with-other';\nimport { bump } from './counter';\nexport const other = (): string => tag(`other:${bump()}`);\n",
  'entry.ts': [
    "import { bump } from './counter';",
    'export const handler = async () => {',
    '  const first = bump();',
    "  const { client } = await import('./s3-client');",
    "  const { get } = await import('./s3-get');",
    "  const { put } = await import('./s3-put');",
    "  const { other } = await import('./other');",
    '  return { first, client: client(), get: get(), put: put(), other: other(), again: bump() };',
    '};',
    "export const failing = async () => (await import('./s3-get')).getFails();",
  ].join('\n'),
};

async function mergedBundle(extra: Record<string, string> = {}): Promise<{ dir: string; out: string }> {
  const dir = tempDir('merge-groups-');
  const src = join(dir, 'src');
  mkdirSync(src, { recursive: true });
  for (const [name, text] of Object.entries({ ...SOURCES, ...extra })) writeFileSync(join(src, name), text);
  const out = join(dir, 'out');
  await build({ ...BUNDLE_BUILD, entryPoints: [join(src, 'entry.ts')], outdir: out, logLevel: 'silent' });
  await mergeInitialChunks(out);
  return { dir, out };
}

const chunks = (out: string) => readdirSync(join(out, 'chunks')).filter((f) => f.endsWith('.mjs')).sort();
const nodeRun = async (script: string) => (await run(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script])).stdout.trim();
const handlerScript = (out: string) => `const { handler } = await import(${JSON.stringify(pathToFileURL(join(out, 'index.mjs')).href)}); console.log(JSON.stringify(await handler()))`;

describe('tools/merge-lazy-groups.mjs', () => {
  it("puts the group's chunks and the chunks only they share in one file; each module is still evaluated once", async () => {
    const { out } = await mergedBundle();
    const before = await nodeRun(handlerScript(out));
    expect(JSON.parse(before)).toEqual({ first: 1, client: '<client:2>', get: 'get:3:client+get', put: 4, other: '<other:5>', again: 6 });
    const chunksBefore = chunks(out);
    expect(chunksBefore.filter((f) => f.startsWith('s3-'))).toHaveLength(3);

    const merged = await mergeLazyGroups(out);

    const after = chunks(out);
    expect(after).toContain('s3.mjs');
    expect(after.filter((f) => f.startsWith('s3-'))).toEqual([]);
    // The three modules and the state only they share; the chunk shared with `other` stays a file of its own.
    expect(merged.mergedInto.size).toBe(4);
    expect(after.length).toBe(chunksBefore.length - 4 + 1);
    for (const f of after) expect(existsSync(join(out, 'chunks', `${f}.map`))).toBe(true);
    expect([...staticClosureOf(join(out, 'index.mjs'))]).toEqual([join(out, 'index.mjs')]);
    expect(await nodeRun(handlerScript(out))).toBe(before);
  });

  it('keeps the source maps: an error thrown in merged code names its own source', async () => {
    const { dir, out } = await mergedBundle();
    await mergeLazyGroups(out);
    expect(readFileSync(join(out, 'chunks', 's3.mjs'), 'utf8')).toMatch(/\/\/# sourceMappingURL=s3\.mjs\.map\s*$/);
    const stack = await nodeRun(`const { failing } = await import(${JSON.stringify(pathToFileURL(join(out, 'index.mjs')).href)}); try { await failing(); } catch (e) { console.log(e.stack); }`);
    expect(stack).toContain(`(${join(dir, 'src', 'fails.ts')}:1:`);
  });

  it('leaves a group two of whose modules export the same name as esbuild wrote it', async () => {
    const { out } = await mergedBundle({ 's3-put.ts': "import { note } from './group-state';\nexport const put = (): number => note('put');\nexport const get = (): string => 'not the same get';\n" });
    const before = chunks(out);
    expect((await mergeLazyGroups(out)).mergedInto.size).toBe(0);
    expect(chunks(out)).toEqual(before);
  });

  it('leaves a group whose module another module imports otherwise than by import() as esbuild wrote it', async () => {
    const { out } = await mergedBundle();
    // The state only the group shares: the chunk s3-put imports (its only import besides the entry).
    const put = chunks(out).find((f) => f.startsWith('s3-put-'))!;
    const shared = /from"\.\/(chunk-[A-Z0-9]+\.mjs)"/.exec(readFileSync(join(out, 'chunks', put), 'utf8'))![1]!;
    const other = chunks(out).find((f) => f.startsWith('other-'))!;
    writeFileSync(join(out, 'chunks', other), `${readFileSync(join(out, 'chunks', other), 'utf8')}\nexport const peek = () => import("./${shared}");\n`);
    const before = chunks(out);
    expect((await mergeLazyGroups(out)).mergedInto.size).toBe(0);
    expect(chunks(out)).toEqual(before);
  });

  it("removes the chunks no module names (an import() esbuild dropped as unused) and leaves them out of the group", async () => {
    const { out } = await mergedBundle({
      'lazy.ts': 'export const lazy = <T>(load: () => Promise<T>) => { let p: Promise<T> | undefined; return () => (p ??= load()); };\n',
      's3-copy.ts': "import { note } from './group-state';\nexport const copy = (): number => note('copy');\n",
      'entry.ts': `import { lazy } from './lazy';\nconst copy = /* @__PURE__ */ lazy(() => import('./s3-copy'));\n${SOURCES['entry.ts']}`,
    });
    const copy = chunks(out).find((f) => f.startsWith('s3-copy-'));
    expect(copy).toBeDefined();
    const before = await nodeRun(handlerScript(out));

    const { mergedInto, removed } = await mergeLazyGroups(out);

    expect(removed).toEqual([join(out, 'chunks', copy!)]);
    expect(existsSync(join(out, 'chunks', `${copy!}.map`))).toBe(false);
    expect(mergedInto.size).toBe(4);
    expect(readFileSync(join(out, 'chunks', 's3.mjs'), 'utf8')).not.toContain('copy');
    expect(await nodeRun(handlerScript(out))).toBe(before);
  });

  it('merges nothing in an asset with one module of the group', async () => {
    const { out } = await mergedBundle({
      'entry.ts': "export const handler = async () => (await import('./s3-put')).put();\n",
    });
    const before = chunks(out);
    expect((await mergeLazyGroups(out)).mergedInto.size).toBe(0);
    expect(chunks(out)).toEqual(before);
  });
});
