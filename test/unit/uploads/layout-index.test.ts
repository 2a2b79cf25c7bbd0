import { describe, expect, it } from 'vitest';
import { parseCsv, recordFields, safeCsvCell, startsLikeFormula } from '../../../lambdas/uploads/csv';
import { layoutOf, storedLayoutOf, storedRowsOf } from '../../../lambdas/uploads/work-file';
import { layoutIndexOf, readLayoutIndex, rowEol, rowWidth } from '../../../lambdas/uploads/layout-index';
import { planCsvBytes } from '../../../lambdas/uploads/csv-planner';
import { planUpload } from '../../../lambdas/uploads/plan-upload';
import { byteSpans, streamByteSpans } from '../../../lambdas/uploads/byte-offsets';
import { StreamedOriginal } from '../../../lambdas/uploads/original-bytes';
import { writeProcessedBytes } from '../../../lambdas/uploads/processed-file';
import { ResultTable } from '../../../lambdas/uploads/results';

// Issue 30 item 3, fourth round: finalize reads the stored layout as offsets in typed arrays and a
// byte a row, stepping over the formula rows' fields, and takes those fields from the record's
// bytes in the original when neutralize_formulas (or the slice base) needs them. Both must give
// what parsing the whole layout gave.

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

/** Cells a reader could get wrong read alone: quotes, stray text after a closing quote, breaks of every kind inside quotes, formula starts, a BOM character, non-ASCII, JSON's own syntax. */
const CELLS = [
  'Ada', '', '=SUM(A1)', '+1 212 555 0143', '-5', '@x', '"\t tab"', '"say ""hi"""', '"a"b', '"x""y"', '"two\r\nlines"', '"cr\ronly"', '"lf\nonly"',
  '"=1,2"', '\uFEFFbom', 'Zoë 🦊 日本', '"\\"', '"]}{[\\\\"', '"\\u0041"', '" lead"', 'x'.repeat(50),
];

/** A record's first field: a BOM character or a quote opening a record read alone must read as inside the file. */
const FIRST = ['', '', '', '\uFEFF', '=', '""'];

function randomCsv(seed: number, wider = true) {
  const r = rng(seed);
  const eol = ['\r\n', '\n', '\r'][r(3)]!;
  const header = ['id', 'phone', r(3) === 0 ? '=notes' : 'notes', r(4) === 0 ? '"-alt"' : 'alt'];
  const lines = [header.join(',')];
  const rows = 1 + r(80);
  for (let i = 0; i < rows; i++) {
    const width = header.length + (r(6) === 0 ? -2 : r(6) === 0 && wider ? 2 : 0);
    lines.push(Array.from({ length: Math.max(1, width) }, (_, c) => (c === 0 ? FIRST[r(FIRST.length)]! + String(i) : CELLS[r(CELLS.length)]!)).join(',') + (r(10) === 0 && wider ? ',' : ''));
  }
  return lines.join(eol) + (r(2) ? eol : '');
}

const SEEDS = Array.from({ length: 40 }, (_, i) => i + 1);

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield new Uint8Array(bytes.subarray(at, at + size));
}

describe('the stored layout read as an index (layout-index.ts)', () => {
  it('gives what parsing the whole object gives, from the object, a pretty-printed copy, create’s planner and a version 1 work file', async () => {
    for (const seed of SEEDS) {
      // Create refuses rows wider than the header.
      const text = randomCsv(seed, false);
      const parsed = parseCsv(text);
      const stored = storedLayoutOf(layoutOf(parsed));
      const want = layoutIndexOf(stored);
      expect(readLayoutIndex(Buffer.from(JSON.stringify(stored))), `seed ${seed}`).toEqual(want);
      expect(readLayoutIndex(Buffer.from(JSON.stringify(stored, null, 2)))).toEqual(want);
      // Create's planner writes the same object a fragment at a time.
      const planned = await planCsvBytes(Buffer.from(text), { phoneColumns: ['phone'] }, { minimum: 0 });
      expect(readLayoutIndex(Buffer.from(planned.layout))).toEqual(want);
      // Uploads created before the layout had its own object: it sits among the rows' members.
      const [head, ...rows] = parsed.records;
      const plan = planUpload(head!.fields, rows.map((x) => x.fields), { phoneColumns: ['phone'] }, { minimum: 0 });
      const v1 = { v: 1, numbers: [']}"{', ...storedRowsOf(plan.rows, 1).numbers], ...stored, names: null, firstCells: rows.map((x) => x.fields[0] ?? '') };
      expect(readLayoutIndex(Buffer.from(JSON.stringify(v1)))).toEqual(want);
    }
  });

  it('keeps one byte a row for the rows with a formula-like field, and each row’s width and line ending', () => {
    const text = 'id,phone\n1,+12125550143\n2,2125550143,extra\n3,"=x"\r\n4,plain';
    const index = readLayoutIndex(Buffer.from(JSON.stringify(storedLayoutOf(layoutOf(parseCsv(text))))));
    expect([...index.formula]).toEqual([1, 0, 1, 0]);
    expect([0, 1, 2, 3].map((i) => rowWidth(index, i))).toEqual([2, 3, 2, 2]);
    expect([0, 1, 2, 3].map((i) => rowEol(index, i))).toEqual(['\n', '\n', '\r\n', '']);
    expect(index.header.formulaFields).toBeUndefined();
    expect(readLayoutIndex(Buffer.from(JSON.stringify(storedLayoutOf(layoutOf(parseCsv('=a,b\n1,2')))))).header.formulaFields).toEqual(['=a', 'b']);
    // Layouts stored before 2026-11-26 hold each formula row's fields, not 1: read alike.
    const now = storedLayoutOf(layoutOf(parseCsv(text)));
    expect(now.formulas).toEqual({ 0: 1, 2: 1 });
    const before = { ...now, formulas: { 0: ['1', '+12125550143'], 2: ['3', '=x'] } };
    expect(readLayoutIndex(Buffer.from(JSON.stringify(before)))).toEqual(index);
  });

  it('refuses what is not a layout: cut, wrong kinds, offsets that are not integers below 2^32, arrays of different lengths, rows that do not exist, an unknown version', () => {
    const good = JSON.stringify(storedLayoutOf(layoutOf(parseCsv('a,b\n1,=2\n3,4\n'))));
    const variant = (edit: (o: Record<string, unknown>) => void): Buffer => {
      const o = JSON.parse(good) as Record<string, unknown>;
      edit(o);
      return Buffer.from(JSON.stringify(o));
    };
    expect(() => readLayoutIndex(Buffer.from(good))).not.toThrow();
    const bad: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['cut', Buffer.from(good.slice(0, good.length - 5))],
      ['cut inside the formulas', Buffer.from(good.slice(0, good.indexOf('"formulas"') + 16))],
      ['not an object', Buffer.from('[1,2]')],
      ['more after it', Buffer.from(`${good} {}`)],
      ['not JSON', Buffer.from('{"bom":false,"start":[1 2]}')],
      ['a negative offset', variant((o) => (o.start = [-1, 5]))],
      ['a fractional offset', variant((o) => (o.end = [4.5, 8]))],
      ['an offset of 2^32', variant((o) => (o.end = [2 ** 32, 8]))],
      ['an offset as a string', variant((o) => (o.start = ['4', 8]))],
      ['starts and ends of different lengths', variant((o) => (o.end = [4]))],
      ['line endings for fewer rows', variant((o) => (o.eol = 'n'))],
      ['an unknown line ending', variant((o) => (o.eol = 'nx'))],
      ['a formula row that does not exist', variant((o) => (o.formulas = { 2: ['x'] }))],
      ['a formula row that is not a number', variant((o) => (o.formulas = { x: ['x'] }))],
      ['a width of a row that does not exist', variant((o) => (o.widths = { 7: 3 }))],
      ['no start', variant((o) => delete o.start)],
      ['no formulas', variant((o) => delete o.formulas)],
      ['a header that is not a span', variant((o) => (o.header = { start: 0 }))],
      ['a header whose fields are not strings', variant((o) => (o.header = { start: 0, end: 3, eol: '\n', width: 2, formulaFields: [1] }))],
      ['version 3', variant((o) => (o.v = 3))],
    ];
    for (const [name, bytes] of bad) expect(() => readLayoutIndex(bytes), name).toThrow(/layout|version 3/);
  });
});

describe('a formula row’s fields read again from its bytes in the original', () => {
  it('are the fields create read, for every row, whole or streamed in pieces of any size, BOM or not', async () => {
    for (const seed of SEEDS) {
      const body = randomCsv(seed);
      const bom = seed % 2 === 0;
      const bytes = Buffer.from((bom ? '\uFEFF' : '') + body);
      const parsed = parseCsv(body);
      const index = readLayoutIndex(Buffer.from(JSON.stringify(storedLayoutOf({ ...layoutOf(parsed), bom }))));
      const skip = bom ? 3 : 0;
      const spans = await streamByteSpans(pieces(bytes, 1 + (seed % 17)), skip, index);
      expect(spans).toEqual(byteSpans(bytes, skip, index));
      const original = new StreamedOriginal(async () => pieces(bytes, 1 + (seed % 5)));
      const rows = parsed.records.slice(1);
      for (let i = 0; i < rows.length; i++) {
        await original.load(spans.start[i]!, spans.end[i]!);
        const text = original.text(spans.start[i]!, spans.end[i]!);
        expect(recordFields(text), `seed ${seed} row ${i}`).toEqual(rows[i]!.fields);
        expect(index.formula[i]).toBe(rows[i]!.fields.some(startsLikeFormula) ? 1 : 0);
      }
      await original.close();
    }
  });

  it('neutralize_formulas rewrites exactly the formula rows, as their fields through safeCsvCell, every other byte as without it', () => {
    for (const seed of SEEDS) {
      const text = randomCsv(seed);
      const parsed = parseCsv(text);
      const index = readLayoutIndex(Buffer.from(JSON.stringify(storedLayoutOf(layoutOf(parsed)))));
      const results = new ResultTable(1, false, new Uint8Array(parsed.records.length - 1));
      const plain = writeProcessedBytes(Buffer.from(text), 0, index, ['phone'], false, results).toString('utf8');
      const safe = writeProcessedBytes(Buffer.from(text), 0, index, ['phone'], false, results, { neutralizeFormulas: true }).toString('utf8');
      // The plain file is each record's text and a tail of service cells (no line break in it):
      // the expected safe file swaps the text of each record with a formula-like field.
      const eol = parsed.records[0]!.eol || '\n';
      let at = 0;
      let want = '';
      parsed.records.forEach((record, r) => {
        if (r > 0) {
          expect(plain.startsWith(eol, at)).toBe(true);
          want += eol;
          at += eol.length;
        }
        const raw = text.slice(record.start, record.end);
        expect(plain.startsWith(raw, at), `seed ${seed} record ${r}`).toBe(true);
        const next = plain.indexOf(eol, at + raw.length);
        const tail = plain.slice(at + raw.length, next === -1 ? plain.length : next);
        want += (record.fields.some(startsLikeFormula) ? record.fields.map(safeCsvCell).join(',') : raw) + tail;
        at += raw.length + tail.length;
      });
      want += plain.slice(at);
      expect(safe, `seed ${seed}`).toBe(want);
    }
  });
});
