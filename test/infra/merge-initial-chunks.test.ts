import { describe, expect, it } from 'vitest';
import { build } from 'esbuild';
import { execFile } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { BUNDLE_BUILD } from '../../lib/bundle-options';
import { mergeInitialChunks, staticClosureOf } from '../../tools/merge-initial-chunks.mjs';
import { tempDir } from '../support/temp-dirs';

const run = promisify(execFile);

// tools/merge-initial-chunks.mjs on a small code-split bundle built with the service's options
// (lib/bundle-options.ts): an entry and two lazily loaded modules that share state with it (a
// counter) and with each other, so esbuild writes chunks the entry imports statically.
async function splitBundle(): Promise<{ dir: string; out: string }> {
  const dir = tempDir('merge-chunks-');
  const src = join(dir, 'src');
  const files: Record<string, string> = {
    'counter.ts': 'export let count = 0;\nexport function bump(): number { count += 1; return count; }\n',
    'shared.ts': "import { bump } from './counter';\nexport const label = (s: string): string => `${s}:${bump()}`;\n",
    'fails.ts': "export function fails(): never { throw new Error('thrown in fails.ts'); }\n",
    'lazy-a.ts': "import { label } from './shared';\nimport { count } from './counter';\nexport const a = (): string => `${label('a')}/${count}`;\n",
    'lazy-b.ts': "import { bump } from './counter';\nimport { fails } from './fails';\nexport const b = (): number => bump();\nexport const boom = fails;\n",
    'entry.ts': [
      "import { label } from './shared';",
      "import { fails } from './fails';",
      'export const handler = async () => {',
      "  const first = label('entry');",
      "  const { a } = await import('./lazy-a');",
      "  const { b } = await import('./lazy-b');",
      '  return { first, a: a(), b: b(), again: label(\'entry\'), fails: typeof fails };',
      '};',
      'export const failing = () => fails();',
    ].join('\n'),
  };
  const { mkdirSync } = await import('node:fs');
  mkdirSync(src, { recursive: true });
  for (const [name, text] of Object.entries(files)) writeFileSync(join(src, name), text);
  const out = join(dir, 'out');
  await build({ ...BUNDLE_BUILD, entryPoints: [join(src, 'entry.ts')], outdir: out, logLevel: 'silent' });
  return { dir, out };
}

const nodeRun = async (script: string) => (await run(process.execPath, ['--enable-source-maps', '--input-type=module', '-e', script])).stdout.trim();

describe('tools/merge-initial-chunks.mjs', () => {
  it('leaves the entry one module, its state shared with the lazy modules (each module evaluated once)', async () => {
    const { out } = await splitBundle();
    const entry = join(out, 'index.mjs');
    const script = `const { handler } = await import(${JSON.stringify(pathToFileURL(entry).href)}); console.log(JSON.stringify(await handler()))`;
    const before = await nodeRun(script);
    expect(staticClosureOf(entry).size).toBeGreaterThan(1);

    expect(await mergeInitialChunks(out)).toBeGreaterThan(1);
    expect([...staticClosureOf(entry)]).toEqual([entry]);
    // The merged chunks are gone; every lazy module left loads and shares the entry's counter.
    const left = readdirSync(join(out, 'chunks')).filter((f) => f.endsWith('.mjs'));
    for (const f of left) expect(existsSync(`${join(out, 'chunks', f)}.map`)).toBe(true);
    expect(await nodeRun(script)).toBe(before);
    expect(JSON.parse(before)).toEqual({ first: 'entry:1', a: 'a:2/2', b: 3, again: 'entry:4', fails: 'function' });
  });

  it("keeps the entry's source map: an error thrown in merged code names its own source", async () => {
    const { dir, out } = await splitBundle();
    await mergeInitialChunks(out);
    const entry = join(out, 'index.mjs');
    expect(readFileSync(entry, 'utf8')).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
    expect(readdirSync(out).sort()).toEqual(['chunks', 'index.mjs', 'index.mjs.map']);
    const stack = await nodeRun(`const { failing } = await import(${JSON.stringify(pathToFileURL(entry).href)}); try { failing(); } catch (e) { console.log(e.stack); }`);
    // The map names the source where it is, relative to the map (a path from another folder would not resolve).
    expect(stack).toContain(`(${join(dir, 'src', 'fails.ts')}:1:`);
  });

  it('leaves an asset whose lazy module names a chunk of the entry otherwise than by a static import as esbuild wrote it', async () => {
    const { out } = await splitBundle();
    const entry = join(out, 'index.mjs');
    const initial = [...staticClosureOf(entry)].filter((f) => f !== entry);
    const lazy = readdirSync(join(out, 'chunks')).map((f) => join(out, 'chunks', f)).find((f) => f.endsWith('.mjs') && !initial.includes(f))!;
    appendFileSync(lazy, `\nexport const other = () => import("./${initial[0]!.split('/').pop()}");\n`);
    const entryText = readFileSync(entry, 'utf8');
    expect(await mergeInitialChunks(out)).toBe(0);
    expect(readFileSync(entry, 'utf8')).toBe(entryText);
    for (const f of initial) expect(existsSync(f)).toBe(true);
  });
});
