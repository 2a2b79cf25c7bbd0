import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lambdas/uploads/csv';
import { layoutOf } from '../../../lambdas/uploads/work-file';
import { storedIndexOf } from '../../support/layout-index';
import { cellResult, ResultTable, vocabularyFor, type ItemAnswer } from '../../../lambdas/uploads/results';
import { writeProcessedBytes, type SliceOptions } from '../../../lambdas/uploads/processed-file';
import { buildSliceIndex, neutralLinesOf, parseSliceIndex, processedLines, serializeSliceIndex } from '../../../lambdas/uploads/slice-index';
import { assembleSlice, byteRanges, sliceLines, storedAs } from '../../../lambdas/uploads/slice-assembly';
import { ANSWER_INTENTS, IDENTITY_BANDS, type AnswerIntent, type IdentityBand } from '../../../lambdas/classification';

// Issue 30 item 5: any slice is assembled from the processed file and the index finalize writes,
// and is byte for byte what the processed file's writer gives the same options (the path every
// slice took before), for every statuses filter, sort, include_identity and neutralize_formulas.

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const CELLS = ['Ada', 'Zoë 🦊', '"Smith, Jr"', '=SUM(A1)', '+1 212 555 0143', '@home', '', '-5', '"two\r\nlines"', 'x'];

/** A CSV with every shape the writer keeps: BOM, CRLF/LF/CR, no final newline, short and long rows, quoted breaks, formula-looking cells (header too). */
function randomUpload(seed: number, phoneColumns: number, identity: boolean) {
  const r = rng(seed);
  const eol = ['\r\n', '\n', '\r'][r(3)]!;
  const header = ['id', ...Array.from({ length: phoneColumns }, (_, c) => `phone${c}`), r(4) === 0 ? '=notes' : 'notes'];
  const rows = 1 + r(60);
  const lines = [header.join(',')];
  for (let i = 0; i < rows; i++) {
    const width = header.length + (r(8) === 0 ? -1 : r(8) === 0 ? 1 : 0);
    lines.push(Array.from({ length: Math.max(1, width) }, (_, c) => (c === 0 ? String(i) : CELLS[r(CELLS.length)]!)).join(','));
  }
  const bom = r(3) === 0;
  const body = lines.join(eol) + (r(2) ? eol : '');
  const text = (bom ? '\uFEFF' : '') + body;
  // As create stores it: offsets in the text the decoder gives (a BOM dropped), the BOM a flag.
  const layout = storedIndexOf({ ...layoutOf(parseCsv(body)), bom });
  const results = new ResultTable(phoneColumns, identity, new Uint8Array(rows * phoneColumns));
  for (let i = 0; i < rows * phoneColumns; i++) {
    const kind = r(6);
    const answer: ItemAnswer = { answerIntent: ANSWER_INTENTS[r(ANSWER_INTENTS.length)] as AnswerIntent, identity: IDENTITY_BANDS[r(IDENTITY_BANDS.length)] as IdentityBand };
    results.cells[i] = results.codeOf(kind === 0 ? cellResult('', false, undefined, identity) : kind === 1 ? cellResult(null, false, undefined, identity) : cellResult('+', r(2) === 1, answer, identity));
  }
  const bytes = Buffer.from(text, 'utf8');
  const skip = bom ? 3 : 0;
  const names = Array.from({ length: phoneColumns }, (_, c) => `phone${c}`);
  return { bytes, skip, layout, results, names, identity };
}

type Upload = ReturnType<typeof randomUpload>;

const BASE: SliceOptions = { sort: 'best_status', includeIdentity: true };

/** The slice base and its index as finalize writes them (downloads.ts), the index through its stored form. */
function indexed(u: Upload) {
  const lines = processedLines();
  const base = Buffer.from(writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, u.identity, u.results, BASE, undefined, lines));
  const index = parseSliceIndex(serializeSliceIndex(buildSliceIndex(lines, u.results, u.names.length, u.identity)));
  const processed = writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, u.identity, u.results);
  return { base, index, processed, neutral: neutralLinesOf(lines) };
}

/** A slice as the download answers it: the base or the processed file when it is one, else read from the ranges of the base it needs. */
function sliceOf({ base, index, processed, neutral }: ReturnType<typeof indexed>, options: SliceOptions): Buffer {
  const lines = sliceLines(index, options);
  const same = storedAs(index, lines, options);
  if (same) return same === 'base' ? base : processed;
  // As the download reads them (a few ranges, the test files being small: one), and line by line (no gap merged).
  const [few, many] = [byteRanges(index, lines), byteRanges(index, lines, 0, Infinity)];
  for (let i = 1; i < many.length; i++) expect(many[i]![0]).toBeGreaterThan(many[i - 1]![1]);
  const [a, b] = [few, many].map((ranges) => assembleSlice(index, lines, ranges.map(([from, to]) => ({ from, bytes: base.subarray(from, to) })), options, neutral));
  expect(b!.equals(a!)).toBe(true);
  return a!;
}

/** Every subset of the vocabulary (9 tiers: 512; 5 intents: 32), each with both orders and the two options. */
function* everyOption(identity: boolean): Generator<SliceOptions> {
  const vocabulary = vocabularyFor(identity);
  for (let m = 0; m < 1 << vocabulary.length; m++) {
    const statuses = m === 0 ? undefined : new Set(vocabulary.filter((_, b) => m & (1 << b)));
    for (const sort of [undefined, 'best_status'] as const) {
      for (const flags of [0, 1, 2, 3]) yield { statuses, sort, includeIdentity: (flags & 1) === 1, neutralizeFormulas: (flags & 2) === 2 };
    }
  }
}

describe('slices assembled from the processed file and its index', () => {
  for (const [phoneColumns, identity] of [[1, true], [1, false], [3, true], [2, false]] as const) {
    it(`equal the writer's slice for every filter, sort and option (${phoneColumns} column(s), ${identity ? 'identity' : 'answer intent'})`, () => {
      // 4,096 option sets per file with identity (512 filters): fewer files.
      for (let seed = 1; seed <= (identity ? 3 : 6); seed++) {
        const u = randomUpload(seed * 7919 + phoneColumns, phoneColumns, identity);
        const stored = indexed(u);
        for (const options of everyOption(identity)) {
          const want = writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, u.identity, u.results, options).toString('utf8');
          const got = sliceOf(stored, options).toString('utf8');
          if (got !== want) expect({ seed, options: { ...options, statuses: options.statuses && [...options.statuses] }, got }).toEqual({ seed, options: { ...options, statuses: options.statuses && [...options.statuses] }, got: want });
        }
      }
    });
  }

  it('keeps a row when any of its numbers matches, and ranks it by its best number, ties in file order', () => {
    const results = new ResultTable(2, false, new Uint8Array(8));
    const answer = (answerIntent: AnswerIntent) => cellResult('+', false, { answerIntent, identity: null }, false);
    // Row 0: Voicemail + Answer; row 1: blank + blank (Unknown); row 2: Non-Mobile + blank; row 3: Answer + invalid.
    [answer('Likely Voicemail'), answer('Likely Answer'), null, null, answer('Non-Mobile'), null, answer('Likely Answer'), cellResult(null, false, undefined, false)].forEach((c, i) => (results.cells[i] = results.codeOf(c)));
    const text = 'id,a,b\n0,x,y\n1,,\n2,x,\n3,x,z\n';
    const lines = processedLines();
    writeProcessedBytes(Buffer.from(text), 0, storedIndexOf(layoutOf(parseCsv(text))), ['a', 'b'], false, results, BASE, undefined, lines);
    const index = buildSliceIndex(lines, results, 2, false);
    const rows = (options: SliceOptions) => [...sliceLines(index, options)].map((p) => index.row[p]);
    expect(rows({ statuses: new Set(['Likely Voicemail']) })).toEqual([0]);
    expect(rows({ statuses: new Set(['Likely Answer']) })).toEqual([0, 3]);
    expect(rows({ statuses: new Set(['Unknown']) })).toEqual([1, 3]);
    expect(rows({ statuses: new Set(['Non-Mobile', 'Unknown']), sort: 'best_status' })).toEqual([3, 2, 1]);
    expect(rows({ sort: 'best_status' })).toEqual([0, 3, 2, 1]);
    expect(rows({})).toEqual([0, 1, 2, 3]);
    expect(rows({ statuses: new Set(['Likely Call Screening']) })).toEqual([]);
  });

  it('a status outside the vocabulary or an empty set keeps no row; duplicates change nothing', () => {
    const u = randomUpload(42, 1, true);
    const stored = indexed(u);
    expect(sliceLines(stored.index, { statuses: new Set(['Likely Answer']) })).toHaveLength(0);
    expect(sliceLines(stored.index, { statuses: new Set() })).toHaveLength(0);
    const none = { statuses: new Set(['nope']) };
    expect(sliceOf(stored, none).toString('utf8')).toBe(writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, true, u.results, none).toString('utf8'));
    expect([...sliceLines(stored.index, { statuses: new Set(['2 - Likely Answer', 'Unknown']) })]).toEqual([...sliceLines(stored.index, { statuses: new Set(['Unknown', '2 - Likely Answer', '2 - Likely Answer']) })]);
  });

  it('reads a few ranges: one per status run of the base in best-status order, the whole span past 24', () => {
    const u = randomUpload(77, 1, false);
    const { index } = indexed(u);
    const ranges = byteRanges(index, sliceLines(index, { statuses: new Set(['Likely Voicemail']), sort: 'best_status' }));
    expect(ranges.length).toBeLessThanOrEqual(2);
    const every = new Uint32Array(index.rows).map((_, p) => p);
    expect(byteRanges(index, every)).toEqual([[0, index.end[index.rows - 1]]]);
  });

  it('refuses a slice whose bytes were not read, an index whose arrays do not hold one entry per row, or of an unknown version', () => {
    const u = randomUpload(5, 1, false);
    const { index, base } = indexed(u);
    const lines = sliceLines(index, { statuses: new Set(['Likely Answer', 'Unknown']) });
    expect(() => assembleSlice(index, lines, [{ from: 0, bytes: base.subarray(0, index.headerEnd) }], {})).toThrow(/were not read/);
    const formulas = indexed(randomUpload(6, 1, false));
    expect(formulas.index.neutralLines).toBeGreaterThan(0);
    expect(() => assembleSlice(formulas.index, sliceLines(formulas.index, {}), [{ from: 0, bytes: formulas.base }], { neutralizeFormulas: true })).toThrow(/neutralized lines/);
    const stored = serializeSliceIndex(index);
    expect(() => parseSliceIndex(stored.subarray(0, stored.length - 1))).toThrow(/one entry per row/);
    expect(() => parseSliceIndex(stored.subarray(0, 2))).toThrow(/truncated/);
    const json = stored.subarray(4, 4 + stored.readUInt32LE(0)).toString('utf8');
    const v3 = Buffer.from(stored);
    v3.write(json.replace('"v":2', '"v":3'), 4);
    expect(() => parseSliceIndex(v3)).toThrow(/version 3/);
  });

  it('is recorded from a file holding every row, as the original has them', () => {
    const u = randomUpload(9, 1, false);
    for (const options of [{ statuses: new Set(['Unknown']) }, { neutralizeFormulas: true }]) {
      expect(() => writeProcessedBytes(u.bytes, u.skip, u.layout, u.names, false, u.results, options, undefined, processedLines())).toThrow(/every row/);
    }
  });
});
