import { describe, expect, it } from 'vitest';
import { analyze, analyzeWithLibphonenumber, normalizeUsCa } from '../../../lambdas/classification/normalize';
import { NANP_REGIONS, decidingDigitsFor, freeTail, literalStarts, possibleLengths, regionPatterns, topLevelAlternatives } from '../../../lambdas/classification/nanp-metadata';
import { phoneInputs } from '../../support/phone-inputs';

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
