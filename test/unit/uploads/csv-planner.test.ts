import { describe, expect, it } from 'vitest';
import { CsvRecordReader, type CsvRecord } from '../../../lambdas/uploads/csv';
import { readCsv } from '../../../lambdas/uploads/create-upload';
import { CsvPlanner, planCsvBytes, type PlannedCsv } from '../../../lambdas/uploads/csv-planner';
import { planUpload, type ColumnMapping } from '../../../lambdas/uploads/plan';
import { hasUtf8Bom, layoutOf, serializeWork } from '../../../lambdas/uploads/work-file';
import { joinSlices } from '../../../lambdas/uploads/request';
import { InvalidInput } from '../../../lambdas/platform/domain-errors';

// Create reads a file as it arrives (csv-planner.ts): whatever the pieces, it must find the records,
// plan, work file and layout that reading the whole file at once finds, and refuse what that refuses.

/** The whole-file path create took before: decode and parse (readCsv), plan, serialize. */
function wholeFile(bytes: Buffer, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean } = {}): PlannedCsv {
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  if (!header) throw new InvalidInput('The file is empty; it needs a header row and at least 100 numbers');
  const plan = planUpload(header.fields, rows.map((r) => r.fields), mapping, { minimum: options.minimum });
  const layout = layoutOf(parsed);
  layout.bom ||= hasUtf8Bom(bytes);
  const { rows: _rows, ...counts } = plan;
  return { ...counts, ...serializeWork({ rows: plan.rows, layout, firstCells: options.firstCells ? rows.map((r) => r.fields[0] ?? '') : undefined }, mapping.phoneColumns.length) };
}

function inPieces(bytes: Buffer, size: number, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean } = {}): PlannedCsv {
  const planner = new CsvPlanner(mapping, options);
  for (let at = 0; at < bytes.length; at += size) planner.push(bytes.subarray(at, at + size));
  return planner.finish();
}

/** The stored texts compared as the values readers get back (JSON.parse), and the counts as they are. */
const values = (p: PlannedCsv) => ({ ...p, work: p.work.toString().split('\n').map((l) => JSON.parse(l) as unknown), layout: JSON.parse(p.layout.toString()) as unknown });

const outcome = (f: () => PlannedCsv) => {
  try {
    return { ok: values(f()) };
  } catch (error) {
    return { refused: `${(error as Error).name}: ${(error as Error).message}` };
  }
};

const numbers = (n: number) => Array.from({ length: n }, (_, i) => `(212) 555-${String(1000 + i)}`);
const mapping: ColumnMapping = { phoneColumns: ['phone', 'alt'], firstNameColumn: 'first', lastNameColumn: 'last' };

const FILES: Record<string, string> = {
  crlf: ['first,last,phone,alt', ...numbers(120).map((n, i) => `Ada${i},"Love, ${i}",${n},`)].join('\r\n') + '\r\n',
  'BOM, short and blank rows, no final line end': '\uFEFFfirst,last,phone,alt\n' + numbers(105).map((n) => `,,${n}`).join('\n\n') + '\nonly',
  'two BOMs, non-ASCII': '\uFEFF\uFEFFfirst,last,phone,alt\n' + numbers(101).map((n) => `Zoë,Ñandú 🙂,${n},`).join('\n') + '\n',
  'trailing comma at the end': 'first,last,phone,alt\n' + numbers(101).map((n) => `a,b,${n}`).join('\n') + ',',
};
// Lone CRs as line ends in the second file.
FILES['quoted newlines, escaped quotes, formulas, lone CRs'] = [
  'first,last,phone,alt',
  ...numbers(110).map((n, i) => (i % 3 ? `"multi\nline ${i}","say ""hi""",${n},=cmd()` : `${i},x,"${n}",+1 646 555 ${String(1000 + i)}`)),
].join('\r');

const REFUSED: Record<string, string> = {
  'unterminated quote': 'first,last,phone,alt\n' + numbers(101).map((n) => `a,b,${n},`).join('\n') + '\n"open,',
  'too few numbers': 'first,last,phone,alt\n' + numbers(5).map((n) => `a,b,${n},`).join('\n'),
  'missing column': 'first,last,tel\n' + numbers(200).map((n) => `a,b,${n}`).join('\n'),
  'a row too wide': 'first,last,phone,alt\n' + numbers(200).map((n, i) => (i === 7 ? `a,b,${n},,extra` : `a,b,${n},`)).join('\n'),
  'empty': '',
  'too many rows, a row too wide among them': 'first,last,phone,alt\n' + 'a,b,c,d,e\n' + 'x,y,,\n'.repeat(250_001),
};

describe('create reads a CSV as it arrives (csv-planner.ts)', () => {
  it('finds, in pieces of any size, the plan, work file and layout of the whole file', () => {
    for (const [name, text] of Object.entries(FILES)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = outcome(() => wholeFile(bytes, mapping, { firstCells: true }));
      expect(whole.ok, name).toBeDefined();
      for (const size of [1, 2, 3, 7, 64, 1000, bytes.length]) {
        expect(outcome(() => inPieces(bytes, size, mapping, { firstCells: true })), `${name} in pieces of ${size}`).toEqual(whole);
      }
      expect(outcome(() => planCsvBytes(bytes, mapping, { firstCells: true })), name).toEqual(whole);
    }
  });

  it('finds the same with a full name column in a file whose stored lists span many pieces', () => {
    const full: ColumnMapping = { phoneColumns: ['phone'], fullNameColumn: 'name' };
    const names = ['Zoë "Z" Ñandú', 'back\\slash', '🙂 smile', '=HYPERLINK("x")', 'plain', ''];
    const rows = Array.from({ length: 40_000 }, (_, i) => {
      const name = names[i % names.length]!;
      const phone = i % 7 === 0 ? 'not a number' : `+1 212 ${String(200 + (i % 700)).padStart(3, '0')} ${String(i % 10_000).padStart(4, '0')}`;
      return `"${name.replaceAll('"', '""')}",${phone}${i % 11 === 0 ? ',extra' : ''}`;
    });
    // One formula-like row larger than a piece of the writer (256 KB once encoded).
    rows.push(`"=${'é'.repeat(150_000)}",+1 212 555 0100`);
    const bytes = Buffer.from(['name,phone,note', ...rows].join('\r\n'), 'utf8');
    const whole = outcome(() => wholeFile(bytes, full, { firstCells: true }));
    expect(whole.ok).toBeDefined();
    for (const size of [65_536, bytes.length]) expect(outcome(() => inPieces(bytes, size, full, { firstCells: true })), `pieces of ${size}`).toEqual(whole);
  });

  it('refuses what the whole-file path refuses, with the same error', () => {
    for (const [name, text] of Object.entries(REFUSED)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = outcome(() => wholeFile(bytes, mapping));
      expect(whole.refused, name).toBeDefined();
      for (const size of name.startsWith('too many') ? [65_536] : [1, 5, 4096]) expect(outcome(() => inPieces(bytes, size, mapping)), `${name} in pieces of ${size}`).toEqual(whole);
    }
  });

  it('refuses invalid UTF-8 wherever a piece splits a character, and takes a character split across pieces', () => {
    const good = Buffer.from('first,last,phone,alt\n' + numbers(101).map((n) => `Zoë,🙂,${n},`).join('\n'));
    for (const size of [1, 2, 3]) expect(inPieces(good, size, mapping).validNumberCount).toBe(101);
    const bad = Buffer.concat([good, Buffer.from([0xc3, 0x28])]);
    for (const size of [1, 2, 3, 4096]) expect(() => inPieces(bad, size, mapping)).toThrow(/not valid UTF-8/);
  });

  it('reads a quoted field spanning many pieces in linear time, not rescanning it on every piece', () => {
    const big = `"${'x'.repeat(4_000_000)}"\n`;
    const records: CsvRecord[] = [];
    const reader = new CsvRecordReader((r) => records.push(r));
    const t = performance.now();
    for (let at = 0; at < big.length; at += 64) reader.push(big.slice(at, at + 64));
    reader.end();
    // Rescanning the held text on each of the 62,500 pieces would scan about 125 billion characters.
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(records).toHaveLength(1);
    expect(records[0]!.fields[0]).toHaveLength(4_000_000);
  });
});

describe('a multipart file part', () => {
  it('is the body in place when busboy handed out adjacent slices of it, else joined', () => {
    const body = Buffer.from('0123456789');
    const inPlace = joinSlices([body.subarray(2, 5), body.subarray(5, 9)]);
    expect(inPlace.toString()).toBe('2345678');
    expect(inPlace.buffer).toBe(body.buffer);
    const joined = joinSlices([body.subarray(2, 4), Buffer.from('xy'), body.subarray(4, 6)]);
    expect(joined.toString()).toBe('23xy45');
    expect(joinSlices([]).length).toBe(0);
  });
});
