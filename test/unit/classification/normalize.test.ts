import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithLibphonenumber, libphonenumberCount, normalizeUsCa } from '../../../lambdas/classification/normalize';
import { NANP_REGIONS, decidingDigitsFor, freeTail, literalStarts, possibleLengths, regionPatterns, topLevelAlternatives } from '../../../lambdas/classification/nanp-metadata';
import { patternShapes } from '../../../lambdas/classification/nanp-pattern-shapes';
import { nationalMayBeValid } from '../../../lambdas/classification/nanp-shapes';
import metadata from '../../../lambdas/classification/nanp-metadata.max.json';
import { NO_NUMBER, NOT_READ, scanNanp } from '../../../lambdas/classification/scan-nanp';
import { phoneInputs } from '../../support/phone-inputs';
import { realisticInputs } from '../../../bench/inputs';
import { mixedInputs } from '../../../bench/mixed-inputs';

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

// Inputs around the edges of what scan-nanp.ts answers as invalid (rule 6): every digit count from
// 0 to 18, led by what libphonenumber-js strips (+, +1, 1, 11, 011, 0111, 01111, +11, +0 …), the
// 7-digit numbers it can find valid (310 …), grouped with punctuation, with text, letters,
// extensions and characters it treats specially around and inside.
function* edgeInputs(count: number, seed: number): Generator<string> {
  let state = seed >>> 0;
  const r = (n: number) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % n;
  };
  const leads = ['', '', '', '+', '+1', '+1 ', '1', '1-', '11', '1 1 ', '+11', '+1 1 ', '011', '011 ', '0111', '011 1 ', '01111', '011 1 1 ', '0110', '+0', '+2', '0', '00', '001', '+44 ', '310', '3', '1 310 ', '+1 310 '];
  const around = ['', '', '', ' ', 'tel:', 'call ', 'n/a ', 'abc', '(', ')', '#', '+', '.', '-', 'x', 'ext', ' x1', ' ext. 12', ' #5', ' (cell)', 'FLOWERS', '-CALL', '@example.com', '/', '~', ',', ';', '\t', '\u00A0', '\uFF11', 'e', 'E', ':'];
  const punct = ['', '', '-', ' ', '.', '(', ')', '/', '[', ']', ' - '];
  const pick = <T,>(xs: T[]) => xs[r(xs.length)]!;
  for (let i = 0; i < count; i++) {
    const n = r(19);
    let digits = '';
    for (let k = 0; k < n; k++) digits += String(r(4) === 0 ? r(2) : r(10));
    let body = pick(leads);
    for (let k = 0; k < digits.length; k++) {
      if (k > 0 && r(4) === 0) body += pick(punct);
      if (r(40) === 0) body += pick(around);
      body += digits[k];
    }
    yield `${r(3) === 0 ? pick(around) : ''}${body}${r(3) === 0 ? pick(around) : ''}${r(6) === 0 ? pick(around) + String(r(1e5)) : ''}`;
  }
  for (const junk of ['', ' ', '+', '#', '+#', '#+', '-', 'n/a', '#N/A', 'none', '1', '+1', '011', '0111', 'x'.repeat(250), '2'.repeat(250), '2'.repeat(251)]) yield junk;
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
  // Each input asks libphonenumber-js once (~20-40 µs, more on a loaded machine); a test over
  // k × DIFFERENTIAL_INPUTS inputs gets k times this.
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
  }, DIFFERENTIAL_TIMEOUT * 3);

  it('answers as libphonenumber-js on invalid and unusual inputs: edges of every digit count, and the bench\'s mixed column', () => {
    const examples: string[] = [];
    let decided = 0;
    let total = 0;
    const inputs = [...edgeInputs(DIFFERENTIAL_INPUTS * 2, 13), ...mixedInputs(DIFFERENTIAL_INPUTS, 17).map((i) => i.raw)];
    for (const raw of inputs) {
      if (raw.includes(PHONE_CONTEXT)) continue;
      total++;
      if (scanNanp(raw) === NO_NUMBER) decided++;
      const ours = JSON.stringify(analyze(raw));
      const theirs = JSON.stringify(analyzeWithLibphonenumber(raw));
      if (ours !== theirs && examples.length < 5) examples.push(`${JSON.stringify(raw)}: ${ours} vs ${theirs}`);
    }
    expect(examples).toEqual([]);
    // The generators reach the new answers: most of these inputs are decided without libphonenumber-js.
    expect(decided / total).toBeGreaterThan(0.3);
  }, DIFFERENTIAL_TIMEOUT * 3);

  it('answers invalid inputs without libphonenumber-js where no national number it can make of the digits is valid', () => {
    for (const raw of ['', 'n/a', '#N/A', '+', '555-0123', '312-1234', '3/14/1985', '212-555-012', '212-555-01234', '+44 20 7946 0958', '0044 20 7946 0958', '011 44 20 7946 0958', '1-800-FLOWERS', '12/5/1980', 'john12@example.com', '0212 555 0123', '+2125550123', '2'.repeat(251)]) {
      expect(scanNanp(raw), raw).toBe(NO_NUMBER);
      expect(analyzeWithLibphonenumber(raw).valid, raw).toBe(false);
    }
    // Shapes libphonenumber-js can still find valid are left to it.
    for (const raw of ['1 310 1234', '+1 1 310 1234', '011 1 1 310 1234', '(212) 555-0123, 5', '212-ABC-1234']) {
      expect(scanNanp(raw), raw).toBe(NOT_READ);
    }
    expect(analyzeWithLibphonenumber('1 310 1234')).toMatchObject({ valid: true, region: 'CA' });
  });

  it('reads the calling code 1 and the national prefix 1 before 10 digits, with +, the IDD or neither, for every area code', () => {
    const before = libphonenumberCount();
    const examples: string[] = [];
    for (let npa = 200; npa <= 999; npa++) {
      for (const line of ['2000000', '5550123', '9999999']) {
        for (const raw of [`1 1 ${npa} ${line}`, `11${npa}${line}`, `+1 1 (${npa}) ${line}`, `+11${npa}${line} x12`, `011 1 1 ${npa}-${line}`]) {
          expect(scanNanp(raw), raw).toBe(Number(`${npa}${line}`));
          if (JSON.stringify(analyze(raw)) !== JSON.stringify(analyzeWithLibphonenumber(raw)) && examples.length < 5) examples.push(raw);
        }
      }
    }
    expect(examples).toEqual([]);
    expect(libphonenumberCount()).toBe(before);
  });

  it('answers 7-digit national numbers without libphonenumber-js, written or after +1 (rule 7): every 310 number', () => {
    const before = libphonenumberCount();
    const examples: string[] = [];
    for (let rest = 0; rest < 10_000; rest++) {
      const line = String(rest).padStart(4, '0');
      for (const raw of [`310${line}`, `310-${line}`, `3/10/${line}`, `+1 (310) ${line}`, `+1310${line}`, `310.${line} ext. 7`]) {
        const ours = analyze(raw);
        if (JSON.stringify(ours) !== JSON.stringify(analyzeWithLibphonenumber(raw)) && examples.length < 5) examples.push(raw);
      }
    }
    expect(examples).toEqual([]);
    expect(libphonenumberCount()).toBe(before);
    expect(scanNanp('310-1234')).toBe(3101234);
    expect(normalizeUsCa('3/10/1966')).toEqual({ e164: '+13101966', region: 'CA', type: 'UAN' });
    // Other 7-digit numbers have no valid reading: rule 6 still answers them.
    for (const raw of ['312-1234', '+1 312 1234', '999-9999']) expect(scanNanp(raw), raw).toBe(NO_NUMBER);
  });

  it('relies on the metadata facts rule 6 of scan-nanp.ts states', () => {
    const meta = metadata as unknown as { country_calling_codes: Record<string, string[]>; countries: Record<string, unknown[]> };
    // The calling code 1 alone; the US (the default country, and the main country of 1) dials out
    // with 011 and strips the national prefix 1, with no other rule for parsing it.
    expect(Object.keys(meta.country_calling_codes)).toEqual(['1']);
    expect(meta.country_calling_codes['1']![0]).toBe('US');
    const us = meta.countries['US']!;
    expect([us[1], us[5], us[6] || null, us[7] || null]).toEqual(['011', '1', null, null]);
    // What a pattern can match, by length and first digits.
    const sets = (m: Map<number, Set<string>>) => Object.fromEntries([...m].map(([l, set]) => [l, [...set].sort()]));
    expect(sets(patternShapes('[2-9]\\d{9}|3\\d{6}', 1))).toEqual({ 10: ['2', '3', '4', '5', '6', '7', '8', '9'], 7: ['3'] });
    expect(sets(patternShapes('(?:2[1-3]|5)?4\\d{1,2}', 2))).toEqual({ 2: ['40', '41', '42', '43', '44', '45', '46', '47', '48', '49'], 3: ['40', '41', '42', '43', '44', '45', '46', '47', '48', '49', '54'], 4: ['21', '22', '23', '54'], 5: ['21', '22', '23'] });
    expect(sets(patternShapes('310\\d{4}'))).toEqual({ 7: ['310'] });
    expect(() => patternShapes('\\d+')).toThrow(/not read/);
    // Valid national numbers: 10 digits starting 2-9 (not every three), and the 7-digit 310 numbers (Canada's UAN).
    const valid = new Set<string>();
    for (let length = 0; length < 18; length++) for (let prefix = 0; prefix < 1000; prefix++) if (nationalMayBeValid(length, prefix)) valid.add(`${length}:${Math.floor(prefix / 100)}`);
    expect([...valid].sort()).toEqual(['10:2', '10:3', '10:4', '10:5', '10:6', '10:7', '10:8', '10:9', '7:3']);
    expect(nationalMayBeValid(7, 310)).toBe(true);
    expect(nationalMayBeValid(7, 312)).toBe(false);
    expect(nationalMayBeValid(10, 212)).toBe(true);
    expect(nationalMayBeValid(-1, 0)).toBe(false);
  });

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
