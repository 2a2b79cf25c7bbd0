import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { libphonenumberCount, normalizeUsCa } from '../../../lambdas/classification/normalize';
import { normalizeUsCaOnDemand } from '../../../lambdas/classification/normalize-on-demand';
import { NOT_READ, scanNanp } from '../../../lambdas/classification/scan-nanp';
import { mixedInputs } from '../../../bench/mixed-inputs';
import { BUNDLE_BUILD } from '../../../lib/bundle-options';

// The normalizer for one number per request (a contact, a monitored number) loads libphonenumber-js
// only when the scan leaves an input to it (normalize-on-demand.ts): the same answers as
// normalizeUsCa, and a bundle whose cold start does not carry it.

// Inputs the scan leaves to libphonenumber-js (normalize.test.ts checks they are NOT_READ), valid and not.
const LEFT_TO_LIBPHONENUMBER = ['1 310 1234', '1-310-555-0', '+1 1 310 1234', '011 1 1 310 1234', '(212) 555-0123, 5', '212\t555\t0123', '212-ABC-1234', '1-800-FLOWERS-X'];

describe('normalizeUsCaOnDemand', () => {
  it('answers exactly as normalizeUsCa, on the inputs the scan leaves to libphonenumber-js and on the bench\'s mixed column', async () => {
    const left = LEFT_TO_LIBPHONENUMBER.filter((raw) => scanNanp(raw) === NOT_READ);
    expect(left.length).toBeGreaterThanOrEqual(7);
    const inputs = [...left, ...mixedInputs(5_000, 23).map((i) => i.raw), '', 'x'.repeat(300)];
    for (const raw of inputs) expect(await normalizeUsCaOnDemand(raw), JSON.stringify(raw)).toEqual(normalizeUsCa(raw));
    // Some of them were valid only through libphonenumber-js, so the loaded path was taken.
    expect(await normalizeUsCaOnDemand('1 310 1234')).toMatchObject({ e164: '+13101234', region: 'CA' });
    expect(await normalizeUsCaOnDemand('(212) 555-0123, 5')).toEqual(normalizeUsCa('(212) 555-0123, 5'));
  });

  it('hands libphonenumber-js only what the scan leaves, once per input', async () => {
    const before = libphonenumberCount();
    await normalizeUsCaOnDemand('(212) 555-0123');
    await normalizeUsCaOnDemand('+44 20 7946 0958');
    expect(libphonenumberCount()).toBe(before);
    await normalizeUsCaOnDemand('212-ABC-1234');
    expect(libphonenumberCount()).toBe(before + 1);
  });

  /** The inputs of what a bundle of `entry` (as lib/ bundles a function) loads at its start, and of all its chunks. */
  async function bundled(entry: string): Promise<{ initial: Set<string>; lazy: Set<string> }> {
    const dir = mkdtempSync(join(tmpdir(), 'on-demand-'));
    try {
      const { metafile } = await build({ ...BUNDLE_BUILD, entryPoints: [entry], outdir: dir, sourcemap: false, logLevel: 'silent', metafile: true, write: false });
      const outputs = Object.entries(metafile.outputs);
      const [, index] = outputs.find(([path]) => path.endsWith('index.mjs'))!;
      const initial = new Set(Object.keys(index.inputs));
      for (const { path, kind } of index.imports) if (kind === 'import-statement') for (const input of Object.keys(metafile.outputs[path]?.inputs ?? {})) initial.add(input);
      const lazy = new Set(outputs.flatMap(([path, o]) => (path.endsWith('index.mjs') ? [] : Object.keys(o.inputs))).filter((p) => !initial.has(p)));
      return { initial, lazy };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const holds = (inputs: Set<string>, part: string) => [...inputs].some((p) => p.includes(part));

  it('leaves libphonenumber-js and its metadata out of what a bundle loads at its start', async () => {
    const { initial, lazy } = await bundled(fileURLToPath(new URL('../../support/normalize-on-demand-entry.ts', import.meta.url)));
    expect(holds(initial, 'lambdas/classification/scan-nanp.ts')).toBe(true);
    expect(holds(initial, 'node_modules/libphonenumber-js')).toBe(false);
    expect(holds(initial, 'nanp-metadata.max.json')).toBe(false);
    // ...and they are in the bundle, in a chunk loaded on first need.
    expect(holds(lazy, 'node_modules/libphonenumber-js')).toBe(true);
  });

  // Create plans a file's rows with it loaded at the first cell that needs it (uploads/csv-planner.ts);
  // Finalize and Prepare need it only for an upload stored before its work file and cell index were.
  it.each(['http/uploads', 'jobs/contact-pool', 'steps/finalize', 'steps/prepare'])('leaves them out of the start of the %s function, which plans or reads an upload\'s rows', async (name) => {
    const { initial, lazy } = await bundled(fileURLToPath(new URL(`../../../lambdas/functions/${name}.ts`, import.meta.url)));
    expect(holds(initial, 'node_modules/libphonenumber-js')).toBe(false);
    expect(holds(initial, 'nanp-metadata.max.json')).toBe(false);
    expect(holds(lazy, 'node_modules/libphonenumber-js')).toBe(true);
  });
});
