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
const LEFT_TO_LIBPHONENUMBER = ['310-1234', '1 310 1234', '+1 310 1234', '1 1 212 555 0123', '+1 1 212 555 0123', '011 1 1 212 555 0123', '212-ABC-1234', '1-800-FLOWERS-X'];

describe('normalizeUsCaOnDemand', () => {
  it('answers exactly as normalizeUsCa, on the inputs the scan leaves to libphonenumber-js and on the bench\'s mixed column', async () => {
    const left = LEFT_TO_LIBPHONENUMBER.filter((raw) => scanNanp(raw) === NOT_READ);
    expect(left.length).toBeGreaterThanOrEqual(7);
    const inputs = [...left, ...mixedInputs(5_000, 23).map((i) => i.raw), '', 'x'.repeat(300)];
    for (const raw of inputs) expect(await normalizeUsCaOnDemand(raw), JSON.stringify(raw)).toEqual(normalizeUsCa(raw));
    // Some of them were valid only through libphonenumber-js, so the loaded path was taken.
    expect(await normalizeUsCaOnDemand('310-1234')).toMatchObject({ e164: '+13101234', region: 'CA' });
    expect(await normalizeUsCaOnDemand('1 1 212 555 0123')).toEqual(normalizeUsCa('1 1 212 555 0123'));
  });

  it('hands libphonenumber-js only what the scan leaves, once per input', async () => {
    const before = libphonenumberCount();
    await normalizeUsCaOnDemand('(212) 555-0123');
    await normalizeUsCaOnDemand('+44 20 7946 0958');
    expect(libphonenumberCount()).toBe(before);
    await normalizeUsCaOnDemand('212-ABC-1234');
    expect(libphonenumberCount()).toBe(before + 1);
  });

  it('leaves libphonenumber-js and its metadata out of what a bundle loads at its start', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'on-demand-'));
    try {
      const entry = fileURLToPath(new URL('../../support/normalize-on-demand-entry.ts', import.meta.url));
      const { metafile } = await build({ ...BUNDLE_BUILD, entryPoints: [entry], outdir: dir, sourcemap: false, logLevel: 'silent', metafile: true, write: false });
      const outputs = Object.entries(metafile.outputs);
      const [, index] = outputs.find(([path]) => path.endsWith('index.mjs'))!;
      const initial = new Set(Object.keys(index.inputs));
      for (const { path, kind } of index.imports) if (kind === 'import-statement') for (const input of Object.keys(metafile.outputs[path]?.inputs ?? {})) initial.add(input);
      const inInitial = (part: string) => [...initial].some((p) => p.includes(part));
      expect(inInitial('lambdas/classification/scan-nanp.ts')).toBe(true);
      expect(inInitial('node_modules/libphonenumber-js')).toBe(false);
      expect(inInitial('nanp-metadata.max.json')).toBe(false);
      // ...and they are in the bundle, in a chunk loaded on first need.
      expect(outputs.some(([path, o]) => !path.endsWith('index.mjs') && Object.keys(o.inputs).some((p) => p.includes('node_modules/libphonenumber-js')))).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
