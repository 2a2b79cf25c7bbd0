import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithLibphonenumber, normalizeUsCa } from '../../../lambdas/classification/normalize';
import { NANP_REGIONS, decidingDigitsFor, freeTail, literalStarts, possibleLengths, regionPatterns, topLevelAlternatives } from '../../../lambdas/classification/nanp-metadata';
import { phoneInputs } from '../../support/phone-inputs';
import { realisticInputs } from '../../../bench/inputs';

// Spliced inputs for the char-code reader (scan-nanp.ts): a number, whole or in three groups, with
// pieces around and between the groups that libphonenumber-js treats specially (extension labels
// and separators, RFC 3966, characters that are not punctuation to it, non-ASCII digits and spaces).
function* splicedInputs(count: number, seed: number): Generator<string> {
  let state = seed >>> 0;
  const r = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const pieces = ['0', '1', '2', '5', '9', ' ', '  ', '-', '.', '/', '(', ')', '[', ']', '~', '+', '#', ',', ';', '\t', '\n', 'x', 'X', 'ext', 'Ext.', 'extn', 'extension', 'EXTENSION', 'ensio', 'n', 'int', 'e', ':', 'tel:', ';ext=', ';phone-context=+1', 'call ', '(mobile)', 'a', '\u00A0', '\u2028', '\uFF11', '\u0661', '\uFF0B', '+1', '1', '001', '011', '*'];
  const piece = () => pieces[r(pieces.length)]!;
  for (let i = 0; i < count; i++) {
    const digits = String(2 + r(8)) + String(r(1e9)).padStart(9, '0');
    const parts = r(3) === 0 ? [digits] : [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
    let s = '';
    for (let j = r(3); j > 0; j--) s += piece();
    for (const part of parts) {
      s += part;
      for (let j = r(3); j > 0; j--) s += piece();
    }
    if (r(3) === 0) s += piece() + String(r(1e6)).slice(0, r(7));
    yield s;
  }
}

describe('normalizeUsCa', () => {
  it('normalizes common formats to E.164 with region and type', () => {
    for (const raw of ['(212) 555-0143', '+1 212 555 0143', '1-212-555-0143', '212.555.0143', '2125550143', 'call 212 555 0143 x12']) {
      expect(normalizeUsCa(raw)?.e164, raw).toBe('+12125550143');
    }
    expect(normalizeUsCa('416-555-0199')).toMatchObject({ region: 'CA' });
    expect(normalizeUsCa('800-555-0199')?.type).toBe('TOLL_FREE');
    expect(normalizeUsCa('787-555-0100')).toBeNull(); // Puerto Rico: NANP, not US/CA
    expect(normalizeUsCa('+44 20 7946 0958')).toBeNull();
    expect(normalizeUsCa('hello')).toBeNull();
    expect(normalizeUsCa('')).toBeNull();
  });

  // 20,000 here keeps the suite fast; `npm run test:differential` runs 1,000,000 (and the bench
  // checks 1,000,000 too, beside the speed it reports).
  const DIFFERENTIAL_INPUTS = Number(process.env.DIFFERENTIAL_INPUTS ?? 20_000);
  // Each input asks libphonenumber-js once (~20-40 µs, more on a loaded machine).
  const DIFFERENTIAL_TIMEOUT = Math.max(60_000, DIFFERENTIAL_INPUTS * 0.5);

  it(`answers exactly as libphonenumber-js on ${DIFFERENTIAL_INPUTS.toLocaleString('en-US')} generated inputs`, () => {
    let differences = 0;
    const examples: string[] = [];
    for (const raw of phoneInputs(DIFFERENTIAL_INPUTS)) {
      const ours = analyze(raw);
      const theirs = analyzeWithLibphonenumber(raw);
      if (JSON.stringify(ours) !== JSON.stringify(theirs)) {
        differences++;
        if (examples.length < 5) examples.push(`${raw}: ${JSON.stringify(ours)} vs ${JSON.stringify(theirs)}`);
      }
    }
    expect(examples).toEqual([]);
    expect(differences).toBe(0);
  }, DIFFERENTIAL_TIMEOUT);

  it('answers as libphonenumber-js where the character classes differ (tabs, line breaks, non-ASCII, RFC 3966, extension forms)', () => {
    const hostile = [
      '212\t555 0123', '212\n555-0123', '212\u2028555-0123', '\u00A0212 555 0123', '212\u00A0555\u00A00123', '212-555-0123\u3000',
      '\uFF12\uFF11\uFF12 555 0123', '\uFF0B1 212 555 0123', '212~555~0123', '212,555,0123', '212-555-0123,,12', '212-555-0123;ext=12',
      'tel:+1-212-555-0123;isub=5', '+1 212 555 0123 #5#', '212-555-0123 x1234567890',
      '212-555-0123 ext 12345678901', '212-555-0123 int 12', '212-555-0123 xt:12', '212-555-0123 EXTN.- 12', '212-555-0123 extension: 7',
      '212-555-0123 x 12 x 5', '+ 1 (212) 555-0123', '+1+212 555 0123', '+2125550123', '12125550123', '1 1 212 555 0123', '011 1 212 555 0123',
      '0212 555 0123', '212 555 0123' + ' '.repeat(240), 'x'.repeat(240) + '2125550123',
    ];
    for (const raw of hostile) expect(analyze(raw), JSON.stringify(raw)).toEqual(analyzeWithLibphonenumber(raw));
  });

  // libphonenumber-js checks a phone-context with a global regular expression's test(), which
  // keeps its lastIndex between calls: the same input is valid and invalid on alternate calls.
  // There is no one answer to match; such inputs are left out of the comparisons.
  const PHONE_CONTEXT = ';phone-context=';
  it('leaves out phone-context inputs because libphonenumber-js answers them differently on alternate calls', () => {
    const raw = 'tel:212-555-0123;phone-context=+1';
    const answers = [1, 2, 3, 4].map(() => analyzeWithLibphonenumber(raw).valid);
    expect(new Set(answers).size, 'libphonenumber-js answers it consistently now: compare these inputs too').toBe(2);
  });

  it('answers as libphonenumber-js on realistic and spliced inputs', () => {
    const examples: string[] = [];
    const inputs = [...realisticInputs(DIFFERENTIAL_INPUTS, 7).map((i) => i.raw), ...splicedInputs(DIFFERENTIAL_INPUTS * 2, 11)];
    for (const raw of inputs) {
      if (raw.includes(PHONE_CONTEXT)) continue;
      const ours = JSON.stringify(analyze(raw));
      const theirs = JSON.stringify(analyzeWithLibphonenumber(raw));
      if (ours !== theirs && examples.length < 5) examples.push(`${JSON.stringify(raw)}: ${ours} vs ${theirs}`);
    }
    expect(examples).toEqual([]);
  }, DIFFERENTIAL_TIMEOUT);

  it('relies on properties of the metadata that make the prefix memo exact', () => {
    // Every alternative of every NANP pattern ends in a free run of at least 3 digits, and every
    // region accepts 10-digit numbers: so a prefix of at most 7 digits decides.
    for (const region of NANP_REGIONS) {
      const { general, types } = regionPatterns(region);
      for (const alt of [general, ...types].flatMap(topLevelAlternatives)) expect(freeTail(alt), `${region}: ${alt}`).toBeGreaterThanOrEqual(3);
      expect(possibleLengths(region), region).toContain(10);
    }
    expect(literalStarts('(?:246976|900[2-9]\\d\\d)\\d{4}')).toEqual(['246976', '900']);
    expect(literalStarts('8766060\\d{3}')).toEqual(['8766060']);
    expect(literalStarts('[2-9]\\d{9}')).toEqual(['']);
    expect(decidingDigitsFor('212')).toBe(4);
    expect(decidingDigitsFor('876')).toBe(7); // Jamaica reads 7 digits (8766060…)
    expect(decidingDigitsFor('246')).toBe(7);
  });
});
