import { describe, expect, it } from 'vitest';
import metadata from '../../../lambdas/classification/nanp-metadata.max.json';
import stored from '../../../lambdas/classification/nanp-prefixes.json';
import { decidingDigitsOfArea } from '../../../lambdas/classification/nanp-metadata';
import { loadPrefixTable, type PrefixTableJson } from '../../../lambdas/classification/nanp-prefix-table';
import { buildPrefixTable } from '../../../lambdas/classification/nanp-prefix-table-build';
import shapes from '../../../lambdas/classification/nanp-shapes.json';

// The normalizer answers every 10-digit +1 number from this table (issue 15): it must be exactly
// what libphonenumber-js answers, for every deciding prefix, with the stored metadata (run
// `npm run metadata:nanp` after an upgrade of libphonenumber-js).

describe('NANP prefix table', () => {
  it("is libphonenumber-js's answer for every deciding prefix of every area code", () => {
    const fresh = buildPrefixTable(metadata as never, decidingDigitsOfArea, shapes);
    expect(fresh.runs.length).toBe(800);
    expect(stored).toEqual(fresh);
  });

  it('finds the prefix of any number of an area code, whatever the digits after it', () => {
    const table = loadPrefixTable(stored as unknown as PrefixTableJson);
    const answer = (national: number) => table.classes[table.classOf(national)];
    expect(answer(2125550143)).toEqual({ valid: true, region: 'US', type: 'FIXED_LINE_OR_MOBILE' });
    expect(answer(4165550199)).toMatchObject({ region: 'CA' });
    expect(answer(8005550199)).toMatchObject({ type: 'TOLL_FREE' });
    expect(answer(7875550100)).toMatchObject({ region: 'PR' });
    // Jamaica reads 7 digits: 876-606-0xxx is a different range from 876-606-1xxx.
    expect(answer(8766060123)).toEqual(answer(8766060999));
    expect(answer(9999999999)).toEqual(table.classes[table.classOf(9999900000)]);
  });

  it('refuses a stored table whose runs do not cover its prefixes', () => {
    const broken = { ...(stored as unknown as PrefixTableJson), runs: (stored as unknown as PrefixTableJson).runs.map((r, i) => (i === 12 ? `${r},0` : r)) };
    expect(() => loadPrefixTable(broken)).toThrow(/area code 212/);
  });
});
