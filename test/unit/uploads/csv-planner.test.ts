import { describe, expect, it } from 'vitest';
import { CsvRecordReader, type CsvRecord } from '../../../lambdas/uploads/csv';
import { readCsv } from '../../../lambdas/uploads/csv-text';
import { CsvPlanner, planCsvBytes, type PlannedCsv } from '../../../lambdas/uploads/csv-planner';
import type { ColumnMapping } from '../../../lambdas/uploads/plan';
import { planUpload } from '../../../lambdas/uploads/plan-upload';
import { hasUtf8Bom, layoutOf, readFirstCells, readWorkRows, serializeWork } from '../../../lambdas/uploads/work-file';
import { joinSlices } from '../../../lambdas/uploads/request';
import { InvalidInput } from '../../../lambdas/platform/domain-errors';
import { libphonenumberCount, normalizationCount } from '../../../lambdas/classification/normalize';
import { NOT_READ, scanNanp } from '../../../lambdas/classification/scan-nanp';

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

async function inPieces(bytes: Buffer, size: number, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean } = {}): Promise<PlannedCsv> {
  const planner = new CsvPlanner(mapping, options);
  for (let at = 0; at < bytes.length; at += size) {
    planner.push(bytes.subarray(at, at + size));
    await planner.settle();
  }
  return planner.finish();
}

/** The stored forms compared as the values readers get back (and the work file byte for byte), and the counts as they are. */
const values = (p: PlannedCsv) => {
  const work = Buffer.from(p.work);
  const read = { ...p, release: undefined, work, rows: readWorkRows(work), firstCells: readFirstCells(work), layout: JSON.parse(p.layout.toString()) as unknown };
  // Read: the Buffers go back to create's pool (create-buffers.ts), as create gives them back once stored.
  p.release?.();
  return read;
};

const outcome = async (f: () => PlannedCsv | Promise<PlannedCsv>) => {
  try {
    return { ok: values(await f()) };
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
  // A character a decoder drops only at the start of a text, in pieces that start with it.
  'U+FEFF inside fields, after ASCII': 'first,last,phone,alt\n' + numbers(101).map((n, i) => (i % 9 ? `a,b,${n},` : `\uFEFF,\uFEFFz,${n},`)).join('\n') + '\n',
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
  it('finds, in pieces of any size, the plan, work file and layout of the whole file', async () => {
    for (const [name, text] of Object.entries(FILES)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = await outcome(() => wholeFile(bytes, mapping, { firstCells: true }));
      expect(whole.ok, name).toBeDefined();
      for (const size of [1, 2, 3, 7, 64, 1000, bytes.length]) {
        expect(await outcome(() => inPieces(bytes, size, mapping, { firstCells: true })), `${name} in pieces of ${size}`).toEqual(whole);
      }
      expect(await outcome(() => planCsvBytes(bytes, mapping, { firstCells: true })), name).toEqual(whole);
    }
  });

  it('finds the same with a full name column in a file whose stored lists span many pieces', async () => {
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
    const whole = await outcome(() => wholeFile(bytes, full, { firstCells: true }));
    expect(whole.ok).toBeDefined();
    for (const size of [65_536, bytes.length]) expect(await outcome(() => inPieces(bytes, size, full, { firstCells: true })), `pieces of ${size}`).toEqual(whole);
  });

  it('refuses what the whole-file path refuses, with the same error', async () => {
    for (const [name, text] of Object.entries(REFUSED)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = await outcome(() => wholeFile(bytes, mapping));
      expect(whole.refused, name).toBeDefined();
      for (const size of name.startsWith('too many') ? [65_536] : [1, 5, 4096]) expect(await outcome(() => inPieces(bytes, size, mapping)), `${name} in pieces of ${size}`).toEqual(whole);
    }
  });

  it('refuses invalid UTF-8 wherever a piece splits a character, and takes a character split across pieces', async () => {
    const good = Buffer.from('first,last,phone,alt\n' + numbers(101).map((n) => `Zoë,🙂,${n},`).join('\n'));
    for (const size of [1, 2, 3]) expect((await inPieces(good, size, mapping)).validNumberCount).toBe(101);
    const bad = Buffer.concat([good, Buffer.from([0xc3, 0x28])]);
    for (const size of [1, 2, 3, 4096]) await expect(inPieces(bad, size, mapping)).rejects.toThrow(/not valid UTF-8/);
    // A lead byte, ASCII, then the byte that would have completed it: invalid, though the pieces of
    // ASCII between may be read without the decoder.
    const apart = Buffer.concat([good, Buffer.from([0x0a, 0xc3]), Buffer.from('abc'), Buffer.from([0xa9, 0x0a])]);
    for (const size of [1, 2, 3, 4096]) await expect(inPieces(apart, size, mapping)).rejects.toThrow(/not valid UTF-8/);
  });

  it('reads a quoted field spanning many pieces in linear time, not rescanning it on every piece', () => {
    const big = `"${'x'.repeat(4_000_000)}"\n`;
    const records: CsvRecord[] = [];
    const reader = new CsvRecordReader((r) => records.push({ ...r, fields: [...r.fields] }));
    const t = performance.now();
    for (let at = 0; at < big.length; at += 64) reader.push(big.slice(at, at + 64));
    reader.end();
    // Rescanning the held text on each of the 62,500 pieces would scan about 125 billion characters.
    expect(performance.now() - t).toBeLessThan(5_000);
    expect(records).toHaveLength(1);
    expect(records[0]!.fields[0]).toHaveLength(4_000_000);
  });
});

describe('cells only libphonenumber-js reads, while create plans without it (rowPlanner PENDING)', () => {
  // Inputs the normalizer's scan leaves to libphonenumber-js, valid and not (normalize.test.ts).
  const LEFT = ['212-ABC-1234', '1 310 1234', '011 1 1 310 1234', '+1 1 310 1234'];
  const rowsWith = (n: number, at: (i: number) => string | null) =>
    numbers(n).map((phone, i) => {
      const left = at(i);
      return left === null ? `Ada,Lee ${i},${phone},` : i % 2 ? `Ada,Lee ${i},${left},${phone}` : `Ada,Lee ${i},${phone},${left}`;
    });
  const header = 'first,last,phone,alt';
  const LEFT_FILES: Record<string, string> = {
    'in the first row': [header, ...rowsWith(120, (i) => (i === 0 ? LEFT[0]! : null))].join('\n') + '\n',
    // In the second column after a number already read, in the first after it; several in a piece and across pieces.
    'in either column, many rows': [header, ...rowsWith(400, (i) => (i % 37 === 5 ? LEFT[i % LEFT.length]! : null))].join('\r\n'),
    'in the last row, no final line end': [header, ...rowsWith(110, (i) => (i === 109 ? LEFT[2]! : null))].join('\n'),
  };
  const LEFT_REFUSED: Record<string, string> = {
    'a row too wide after one': [header, ...rowsWith(150, (i) => (i === 3 ? LEFT[1]! : null)).map((r, i) => (i === 60 ? `${r},extra` : r))].join('\n'),
    'too few numbers': [header, ...rowsWith(30, () => LEFT[0]!)].join('\n'),
  };

  it('are inputs the scan leaves', () => {
    for (const raw of LEFT) expect(scanNanp(raw), raw).toBe(NOT_READ);
  });

  it('are planned as the whole-file path plans them, in pieces of any size, with every row after them', async () => {
    for (const [name, text] of Object.entries(LEFT_FILES)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = await outcome(() => wholeFile(bytes, mapping, { firstCells: true }));
      expect(whole.ok, name).toBeDefined();
      for (const size of [1, 7, 64, 1000, 4096, bytes.length]) {
        expect(await outcome(() => inPieces(bytes, size, mapping, { firstCells: true })), `${name} in pieces of ${size}`).toEqual(whole);
      }
      expect(await outcome(() => planCsvBytes(bytes, mapping, { firstCells: true })), name).toEqual(whole);
    }
  });

  it('give the whole-file path\'s refusals', async () => {
    for (const [name, text] of Object.entries(LEFT_REFUSED)) {
      const bytes = Buffer.from(text, 'utf8');
      const whole = await outcome(() => wholeFile(bytes, mapping));
      expect(whole.refused, name).toBeDefined();
      for (const size of [1, 64, bytes.length]) expect(await outcome(() => inPieces(bytes, size, mapping)), `${name} in pieces of ${size}`).toEqual(whole);
    }
  });

  it('normalize each cell once, handing libphonenumber-js only those cells', async () => {
    const text = LEFT_FILES['in either column, many rows']!;
    const bytes = Buffer.from(text, 'utf8');
    const cells = text.split('\r\n').slice(1).flatMap((row) => row.split(',').slice(2)).filter((c) => c.trim() !== '');
    const left = cells.filter((c) => LEFT.includes(c)).length;
    expect(left).toBeGreaterThan(5);
    for (const size of [64, bytes.length]) {
      const [normalized, handed] = [normalizationCount(), libphonenumberCount()];
      await inPieces(bytes, size, mapping);
      expect(normalizationCount() - normalized, `pieces of ${size}`).toBe(cells.length);
      expect(libphonenumberCount() - handed, `pieces of ${size}`).toBe(left);
    }
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
