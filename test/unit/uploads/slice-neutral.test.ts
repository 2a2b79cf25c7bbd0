import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lambdas/uploads/csv';
import { layoutOf } from '../../../lambdas/uploads/work-file';
import { storedIndexOf } from '../../support/layout-index';
import { cellResult, ResultTable, type ItemAnswer } from '../../../lambdas/uploads/results';
import { writeProcessedBytes, type SliceOptions } from '../../../lambdas/uploads/processed-file';
import { buildSliceIndex, neutralLinesOf, processedLines } from '../../../lambdas/uploads/slice-index';
import { neutralLinesFromBase } from '../../../lambdas/uploads/slice-neutral';
import { ANSWER_INTENTS, IDENTITY_BANDS, type AnswerIntent, type IdentityBand } from '../../../lambdas/classification';

// The lines neutralize_formulas changes, told from the slice base's own lines, are finalize's
// (the writer's record of them) for every row and the header, or are refused (null) and read from
// finalize's object: never different.

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const CELLS = ['Ada', 'Zoë 🦊', '"Smith, Jr"', '=SUM(A1)', '+1 212 555 0143', '@home', '', '-5', '"two\r\nlines"', 'x', "'quoted", '"\'=x"', '" lead"', '\t=tab', '"a""b"', '"x"y'];
const HEADERS = ['notes', '=notes', "'notes", '"+x, y"', '-'];
const PHONE_NAMES = ['phone', '=phone', "'phone", '@p'];

function upload(seed: number) {
  const r = rng(seed);
  const phoneColumns = 1 + r(3);
  const identity = r(2) === 1;
  const eol = ['\r\n', '\n', '\r'][r(3)]!;
  const names = Array.from({ length: phoneColumns }, (_, c) => `${PHONE_NAMES[r(PHONE_NAMES.length)]}${c}`);
  const header = ['id', ...names, HEADERS[r(HEADERS.length)]!];
  const rows = 1 + r(40);
  const lines = [header.join(',')];
  for (let i = 0; i < rows; i++) {
    const width = header.length + (r(8) === 0 ? -1 : r(8) === 0 ? 1 : 0);
    lines.push(Array.from({ length: Math.max(1, width) }, (_, c) => (c === 0 ? String(i) : CELLS[r(CELLS.length)]!)).join(','));
  }
  const bom = r(3) === 0;
  const text = lines.join(eol) + (r(2) ? eol : '');
  // As create reads a file: the decoder drops a BOM, the offsets are the text's after it.
  const parsed = parseCsv(text);
  const layout = storedIndexOf({ ...layoutOf(parsed), bom });
  const results = new ResultTable(phoneColumns, identity, new Uint8Array(rows * phoneColumns));
  for (let i = 0; i < rows * phoneColumns; i++) {
    const kind = r(6);
    const answer: ItemAnswer = { answerIntent: ANSWER_INTENTS[r(ANSWER_INTENTS.length)] as AnswerIntent, identity: IDENTITY_BANDS[r(IDENTITY_BANDS.length)] as IdentityBand };
    results.cells[i] = results.codeOf(kind === 0 ? cellResult('', false, undefined, identity) : kind === 1 ? cellResult(null, false, undefined, identity) : cellResult('+', r(2) === 1, answer, identity));
  }
  const bytes = Buffer.from((bom ? '\uFEFF' : '') + text, 'utf8');
  const parsedNames = parsed.records[0]!.fields.slice(1, 1 + phoneColumns);
  return { bytes, skip: bom ? 3 : 0, layout, results, names: parsedNames, identity };
}

const BASE: SliceOptions = { sort: 'best_status', includeIdentity: true };

describe('neutralized lines told from the slice base', () => {
  it("equal finalize's record of them for every line, or are refused: never different (1,000 hostile files)", () => {
    let told = 0;
    let refused = 0;
    let rowsTold = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      const u = upload(seed);
      const recorded = processedLines();
      const base = Buffer.from(writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, u.identity, u.results, BASE, undefined, recorded));
      const index = buildSliceIndex(recorded, u.results, u.names.length, u.identity);
      const every = new Uint32Array(index.rows).map((_, p) => p);
      const derived = neutralLinesFromBase(index, every, [{ from: 0, bytes: base }]);
      const want = neutralLinesOf(recorded);
      if (derived === null) {
        refused++;
        // Only a header can be refused, and only one holding a field that starts with a quote.
        expect(want.header).toBeDefined();
        continue;
      }
      told++;
      rowsTold += Object.keys(derived.rows).length;
      expect(derived).toEqual(want);
      // A part of the lines: only theirs.
      const some = every.filter((p) => p % 2 === 0);
      const part = neutralLinesFromBase(index, some, [{ from: 0, bytes: base }]);
      const wantPart = Object.fromEntries(Object.entries(want.rows).filter(([row]) => some.some((p) => index.row[p] === Number(row))));
      expect(part?.rows).toEqual(wantPart);
    }
    expect(told).toBeGreaterThan(200);
    expect(refused).toBeGreaterThan(0);
    expect(rowsTold).toBeGreaterThan(2000);
  });

  it('is refused when the pieces do not hold a line (the caller then reads the stored object)', () => {
    const u = upload(3);
    const recorded = processedLines();
    const base = Buffer.from(writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, u.identity, u.results, BASE, undefined, recorded));
    const index = buildSliceIndex(recorded, u.results, u.names.length, u.identity);
    const every = new Uint32Array(index.rows).map((_, p) => p);
    expect(neutralLinesFromBase(index, every, [{ from: 0, bytes: base.subarray(0, index.headerEnd) }])).toBeNull();
  });
});
