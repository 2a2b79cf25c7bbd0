import { describe, expect, it } from 'vitest';
import { parse as csvParse } from 'csv-parse/sync';
import { csvField, safeCsvCell, parseCsv, startsLikeFormula } from '../../../lambdas/uploads/csv';
import { priceOf } from '../../../lambdas/uploads/plan';
import { planUpload } from '../../../lambdas/uploads/plan-upload';
import { buildProcessedCsv } from '../../../lambdas/uploads/processed-file';
import { rowResults, summarize } from '../../../lambdas/uploads/results';
import { toHttpError } from '../../../lambdas/platform/http/error-response';

const numbers = (n: number, from = 1000) => Array.from({ length: n }, (_, i) => `(212) 555-${String(from + i)}`);

describe('CSV reader', () => {
  it('agrees with csv-parse on quoting, embedded newlines, CRLF and BOM', () => {
    const inputs = [
      'a,b,c\r\n1,"x, y",3\r\n"multi\nline","say ""hi""",\r\n',
      '\uFEFFphone,name\n2125550143,"Lovelace, Ada"\n\n4155550100,Bob',
      'a\n"",x\n',
      'a\n""\n\nb\n',
    ];
    for (const input of inputs) {
      const ours = parseCsv(input).records.map((r) => r.fields);
      const theirs = csvParse(input, { bom: true, relax_column_count: true, skip_empty_lines: true }) as string[][];
      expect(ours).toEqual(theirs);
    }
  });

  it('keeps byte spans so rows can be reproduced exactly', () => {
    const input = 'a,b\r\n"q,1",2\r\nx,y';
    const { records } = parseCsv(input);
    expect(records.map((r) => input.slice(r.start, r.end))).toEqual(['a,b', '"q,1",2', 'x,y']);
    expect(records.map((r) => r.eol)).toEqual(['\r\n', '\r\n', '']);
  });

  it('refuses an unterminated quote and neutralises formulas it writes', () => {
    expect(() => parseCsv('a\n"open')).toThrow(/Unterminated/);
    expect(safeCsvCell('=cmd()')).toBe(`"'=cmd()"`);
    expect(safeCsvCell('a,b')).toBe('"a,b"');
    expect(csvField('+12125550143')).toBe('+12125550143');
  });

  it('takes a cell for a formula exactly when it starts with = + - @, a tab or a CR (OWASP)', () => {
    for (let code = 0; code < 0x3000; code++) {
      const c = String.fromCharCode(code);
      expect(startsLikeFormula(`${c}x`), `U+${code.toString(16)}`).toBe('=+-@\t\r'.includes(c));
    }
    expect(startsLikeFormula('')).toBe(false);
    expect(startsLikeFormula(' =1')).toBe(false);
  });
});

describe('upload rules', () => {
  const header = ['phone', 'alt', 'name'];
  it('counts numbers, de-duplicates across columns and rows, and prices by tier', () => {
    const rows = numbers(120).map((n, i) => [n, i < 10 ? numbers(1, 1000)[0]! : '', `P${i}`]);
    rows.push(['not a number', '', 'x'], ['+44 20 7946 0958', '', 'y']);
    const plan = planUpload(header, rows, { phoneColumns: ['phone', 'alt'] });
    expect(plan).toMatchObject({ totalRows: 122, validRowCount: 120, validNumberCount: 120, invalidCount: 2, identity: false });
    expect(priceOf(1001, 'max')).toBe(1502);
    expect(priceOf(1001, 'standard')).toBe(1001);
  });

  it('answers 422 below 100 numbers, 400 for absent or ambiguous columns and ragged rows', () => {
    const err = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        return toHttpError(e)!;
      }
      throw new Error('expected an error');
    };
    const few = err(() => planUpload(['phone'], numbers(99).map((n) => [n]), { phoneColumns: ['phone'] }));
    expect(few.status).toBe(422);
    expect(few.detail).toMatchObject({ error: 'min_contacts_required', min: 100, got: 99 });
    const dupes = numbers(50).map((n) => [n]).concat(numbers(50).map((n) => [n]));
    expect((err(() => planUpload(['phone'], dupes, { phoneColumns: ['phone'] })).detail as { got: number }).got).toBe(50);
    expect(err(() => planUpload(['tel'], [['1']], { phoneColumns: ['phone'] })).status).toBe(400);
    expect(err(() => planUpload(['phone', 'phone'], [['1', '2']], { phoneColumns: ['phone'] })).detail).toMatch(/unique/);
    expect(err(() => planUpload(['phone'], [['2125550143', 'extra']], { phoneColumns: ['phone'] })).detail).toMatch(/Row 2 has 2 fields/);
  });

  it('names the columns a mapped name matches when the spaces around them are left out, and names UTF-16 text read as UTF-8', () => {
    const detail = (header: string[], phone = 'phone') => {
      try {
        planUpload(header, [], { phoneColumns: [phone] });
      } catch (e) {
        return String(toHttpError(e)!.detail);
      }
      throw new Error('expected an error');
    };
    expect(detail([' phone', 'phone ', 'Phone'])).toBe("phone column 'phone' names 2 columns of the file (' phone', 'phone '); column names must be unique once the spaces around them are left out");
    // 'phone' as UTF-16LE without a BOM, read as UTF-8: a NUL after each character.
    expect(detail([Buffer.from('phone', 'utf16le').toString('utf8')])).toBe('The header row holds NUL characters: the file looks like UTF-16 text; save the CSV as UTF-8 and upload it again');
  });

  it("lists a header's names in a refusal only so far: 50 names of at most 100 characters, and how many more", () => {
    const refusal = (header: string[]) => {
      try {
        planUpload(header, [], { phoneColumns: ['nope'] });
      } catch (e) {
        return toHttpError(e)!;
      }
      throw new Error('expected an error');
    };
    expect(refusal(['name', 'phone']).detail).toBe("phone column 'nope' is not a column of the file; columns: 'name', 'phone'");
    // A 2 MB name and 5,000 columns (both seen in uploads): the answer stays a few KB.
    const wide = ['x'.repeat(2_000_000), ...Array.from({ length: 4_999 }, (_, i) => `c${i}`)];
    const detail = refusal(wide).detail as string;
    expect(JSON.stringify({ detail }).length).toBeLessThan(2_000);
    expect(detail).toContain(`'${'x'.repeat(100)}… (2,000,000 characters)', 'c0', 'c1'`);
    expect(detail).toMatch(/'c48' and 4,950 more$/);
    // Never half of a surrogate pair: 99 characters then an emoji (two UTF-16 units) at the cut.
    const emoji = refusal([`${'a'.repeat(99)}😀tail`]).detail as string;
    expect(emoji).toContain(`'${'a'.repeat(99)}… (105 characters)'`);
  });
});

describe('processed file', () => {
  it('appends Service_Status to untouched rows, keeps BOM and CRLF, and blanks columns without a number', () => {
    const original = '\uFEFFphone,alt,"note, quoted"\r\n2125550143,,=cmd()\r\n4155550100,2125550143,\r\n';
    const { records } = parseCsv(original);
    const plan = { rows: [{ numbers: ['+12125550143', ''] }, { numbers: ['+14155550100', '+12125550143'] }] };
    void records;
    const results = rowResults(plan.rows, false, (key) => (key === '+12125550143' ? { answerIntent: 'Likely Answer', identity: null } : { answerIntent: 'Non-Mobile', identity: null }));
    const single = buildProcessedCsv(original, ['phone'], false, [
      { cells: [results[0]!.cells[0]!], best: 'Likely Answer', bestIdentity: null },
      { cells: [results[1]!.cells[0]!], best: 'Non-Mobile', bestIdentity: null },
    ]);
    expect(single).toBe('\uFEFFphone,alt,"note, quoted",Service_Status\r\n2125550143,,=cmd(),Likely Answer\r\n4155550100,2125550143,,Non-Mobile\r\n');
    const multi = buildProcessedCsv(original, ['phone', 'alt'], false, results);
    expect(multi.split('\r\n')[0]).toBe('\uFEFFphone,alt,"note, quoted",phone_Service_Status,alt_Service_Status');
    expect(multi.split('\r\n')[1]).toBe('2125550143,,=cmd(),Likely Answer,');
    const filtered = buildProcessedCsv(original, ['phone', 'alt'], false, results, { statuses: new Set(['Likely Answer']) });
    expect(filtered.split('\r\n').filter(Boolean)).toHaveLength(3); // both rows have a Likely Answer number
    const nonMobile = { cells: [{ status: 'Non-Mobile', answerIntent: 'Non-Mobile' as const, identity: null }], best: 'Non-Mobile', bestIdentity: null };
    const answer = { cells: [{ status: 'Likely Answer', answerIntent: 'Likely Answer' as const, identity: null }], best: 'Likely Answer', bestIdentity: null };
    const sorted = buildProcessedCsv(original, ['phone'], false, [nonMobile, answer], { sort: 'best_status' });
    expect(sorted.split('\r\n')[1]).toBe('4155550100,2125550143,,Likely Answer'); // the better row first
    expect(summarize(results, false).status_counts).toMatchObject({ 'Likely Answer': 2, 'Non-Mobile': 0 });
  });
});
