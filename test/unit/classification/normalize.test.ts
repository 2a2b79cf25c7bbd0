import { describe, expect, it } from 'vitest';
import metadata from 'libphonenumber-js/metadata.max.json';
import { analyze, analyzeWithLibphonenumber, normalizeUsCa } from '../../../lambdas/classification/normalize';
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

  it('answers exactly as libphonenumber-js on 100,000 generated inputs', () => {
    let differences = 0;
    const examples: string[] = [];
    for (const raw of phoneInputs(100_000)) {
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

  it('relies on a property of the metadata: every NANP pattern ends in \\d{n≥3}, so 7 digits decide', () => {
    const meta = metadata as unknown as { country_calling_codes: Record<string, string[]>; countries: Record<string, unknown[]> };
    const topLevel = (p: string) => {
      const out: string[] = [];
      let depth = 0;
      let start = 0;
      for (let i = 0; i < p.length; i++) {
        const c = p[i];
        if (c === '\\') i++;
        else if (c === '(' || c === '[') depth++;
        else if (c === ')' || c === ']') depth--;
        else if (c === '|' && depth === 0) (out.push(p.slice(start, i)), (start = i + 1));
      }
      out.push(p.slice(start));
      return out;
    };
    const offenders: string[] = [];
    for (const region of meta.country_calling_codes['1']!) {
      const country = meta.countries[region]!;
      const types = (country[11] as ([string] | 0)[] | undefined) ?? [];
      const patterns = [country[2] as string, ...types.map((t) => (t ? t[0] : '')).filter(Boolean)];
      for (const pattern of patterns) for (const alt of topLevel(pattern)) if (!/\\d\{([3-9]|\d{2,})(,\d*)?\}$/.test(alt)) offenders.push(`${region}: ${alt}`);
      expect(country[3], region).toContain(10); // the fast path only ever sees 10-digit national numbers
    }
    expect(offenders).toEqual([]);
  });
});
