import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lambdas/uploads/csv';
import { layoutOf } from '../../../lambdas/uploads/work-file';
import { storedIndexOf } from '../../support/layout-index';
import { cellResult, ResultTable, type ItemAnswer } from '../../../lambdas/uploads/results';
import { inMemorySource, streamTogether, writeProcessedBytes, type SliceOptions } from '../../../lambdas/uploads/processed-file';
import { buildSliceIndex, neutralLinesOf, processedLines, serializeSliceIndex } from '../../../lambdas/uploads/slice-index';
import { ByteSink } from '../../../lambdas/uploads/byte-sink';
import type { ObjectWriter } from '../../../lambdas/platform/blob';
import { ANSWER_INTENTS, IDENTITY_BANDS, type AnswerIntent, type IdentityBand } from '../../../lambdas/classification';

// Issue 30 item 3, Finalize: the processed file and the slices are written to their objects a part
// at a time (a multipart upload), never held whole; what is written is byte for byte what the
// whole-file writer gives, and the slice index records the same places.

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const CELLS = ['Ada', 'Zoë 🦊', '"Smith, Jr"', '=SUM(A1)', '+1 212 555 0143', '', '"two\r\nlines"', 'x'.repeat(300)];

function upload(seed: number) {
  const r = rng(seed);
  const eol = ['\r\n', '\n'][r(2)]!;
  const lines = ['id,phone0,phone1,notes'];
  const rows = 200 + r(400);
  for (let i = 0; i < rows; i++) lines.push([String(i), CELLS[r(CELLS.length)], CELLS[r(CELLS.length)], CELLS[r(CELLS.length)]].join(','));
  const bom = r(2) === 1;
  const body = lines.join(eol) + (r(2) ? eol : '');
  const text = (bom ? '\uFEFF' : '') + body;
  // As create stores it: offsets in the text the decoder gives (a BOM dropped), the BOM a flag.
  const layout = storedIndexOf({ ...layoutOf(parseCsv(body)), bom });
  const identity = r(2) === 1;
  const results = new ResultTable(2, identity, new Uint8Array(rows * 2));
  for (let i = 0; i < rows * 2; i++) {
    const answer: ItemAnswer = { answerIntent: ANSWER_INTENTS[r(ANSWER_INTENTS.length)] as AnswerIntent, identity: IDENTITY_BANDS[r(IDENTITY_BANDS.length)] as IdentityBand };
    results.cells[i] = results.codeOf(r(5) === 0 ? cellResult(null, false, undefined, identity) : cellResult('+', r(2) === 1, answer, identity));
  }
  return { bytes: Buffer.from(text, 'utf8'), skip: bom ? 3 : 0, layout, results, identity };
}

/** An object writer that keeps what it was sent, and checks the store's rule on part sizes. */
function collector(partBytes: number) {
  const parts: Buffer[] = [];
  let closed: Buffer | null = null;
  const writer: ObjectWriter = {
    async part(bytes) {
      if (closed) throw new Error('part after close');
      if (bytes.length < partBytes) throw new Error(`a part of ${bytes.length} bytes, under ${partBytes}`);
      parts.push(Buffer.from(bytes)); // a copy: the sink writes over its bytes afterwards
    },
    async close(last) {
      closed = Buffer.from(last);
    },
  };
  return { writer, parts, object: () => Buffer.concat([...parts, closed ?? Buffer.alloc(0)]), closed: () => closed !== null };
}

const OPTIONS: SliceOptions[] = [{}, { sort: 'best_status', includeIdentity: true }, { statuses: new Set(['Likely Answer', 'Unknown']) }, { sort: 'best_status' }, { neutralizeFormulas: true }];

describe('the processed file written a part at a time', () => {
  it('is byte for byte the whole-file writer’s, for every option finalize writes, with parts of at least the part size', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const u = upload(seed);
      for (const options of OPTIONS) {
        const whole = Buffer.from(writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, options));
        const partBytes = 4096;
        const sink = new ByteSink(64);
        const out = collector(partBytes);
        await streamTogether(inMemorySource(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results), [{ options, to: { writer: out.writer, sink, partBytes } }]);
        expect(out.closed()).toBe(true);
        expect(out.object().equals(whole)).toBe(true);
        expect(out.parts.length).toBeGreaterThan(whole.length / partBytes / 2 - 1);
      }
    }
  });

  it('records the slice index’s line places in the whole file, not in the part', async () => {
    const u = upload(99);
    const base: SliceOptions = { sort: 'best_status', includeIdentity: true };
    const wholeLines = processedLines();
    writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, base, undefined, wholeLines);
    const streamedLines = processedLines();
    const out = collector(1024);
    await streamTogether(inMemorySource(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results), [{ options: base, to: { writer: out.writer, sink: new ByteSink(64), partBytes: 1024 }, lines: streamedLines }]);
    expect(streamedLines).toEqual(wholeLines);
  });

  it('writes the slice base’s neutralized lines as their JSON, a part at a time, the same lines as kept whole', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const u = upload(seed);
      const base: SliceOptions = { sort: 'best_status', includeIdentity: true };
      const wholeLines = processedLines();
      writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, base, undefined, wholeLines);
      const streamedLines = processedLines(new ByteSink(64));
      const file = collector(1024);
      const neutral = collector(1024);
      await streamTogether(inMemorySource(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results), [{ options: base, to: { writer: file.writer, sink: new ByteSink(64), partBytes: 1024, neutralWriter: neutral.writer }, lines: streamedLines }]);
      expect(neutral.closed()).toBe(true);
      expect(JSON.parse(neutral.object().toString('utf8'))).toEqual(neutralLinesOf(wholeLines));
      expect(streamedLines.neutralCount).toBe(wholeLines.neutralCount);
      expect(streamedLines.neutral).toEqual({});
      expect(wholeLines.neutralCount).toBeGreaterThan(0);
      const indexOf = (lines: typeof wholeLines) => serializeSliceIndex(buildSliceIndex(lines, u.results, 2, u.identity));
      expect(indexOf(streamedLines).equals(indexOf(wholeLines))).toBe(true);
    }
  });

  it('an empty original is one small object; the sink never holds more than a part and a line', async () => {
    const text = 'id,phone0,phone1,notes\n';
    const layout = storedIndexOf(layoutOf(parseCsv(text)));
    const out = collector(1024);
    await streamTogether(inMemorySource(Buffer.from(text), 0, layout, ['phone0', 'phone1'], false, new ResultTable(2, false, new Uint8Array(0))), [{ options: {}, to: { writer: out.writer, sink: new ByteSink(64), partBytes: 1024 } }]);
    expect(out.parts).toEqual([]);
    expect(out.object().toString()).toBe(writeProcessedBytes(Buffer.from(text), 0, layout, ['phone0', 'phone1'], false, new ResultTable(2, false, new Uint8Array(0))).toString());

    const u = upload(7);
    const sink = new ByteSink(64);
    let most = 0;
    const watching: ObjectWriter = {
      async part(bytes) {
        most = Math.max(most, bytes.length);
      },
      async close(last) {
        most = Math.max(most, last.length);
      },
    };
    await streamTogether(inMemorySource(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results), [{ options: {}, to: { writer: watching, sink, partBytes: 2048 } }]);
    // A line here is at most ~1 KB (three 300-byte cells and the service's columns).
    expect(most).toBeLessThan(2048 + 1200);
    expect(most).toBeGreaterThanOrEqual(2048);
  });

  it('a sink doubles up to its growTo, then grows only as far as a write needs', () => {
    const hundred = Buffer.alloc(100, 'x');
    const capped = new ByteSink(64, 300);
    const free = new ByteSink(64);
    const sizes = (sink: ByteSink) => [1, 2, 3].map(() => (sink.copy(hundred, 0, 100), sink.capacity));
    expect(sizes(free)).toEqual([128, 256, 512]);
    expect(sizes(capped)).toEqual([128, 256, 300]);
    capped.copy(Buffer.alloc(500, 'y'), 0, 500);
    expect(capped.capacity).toBe(800);
    expect(capped.drain().toString()).toBe('x'.repeat(300) + 'y'.repeat(500));
  });

  it('a drained sink refuses to answer bytes() as if it held the whole file', () => {
    const sink = new ByteSink(8);
    sink.write('abcdef');
    expect(sink.drain().toString()).toBe('abcdef');
    sink.write('gh');
    expect(sink.length).toBe(8);
    expect(sink.pending).toBe(2);
    expect(() => sink.bytes()).toThrow();
    expect(sink.reset().length).toBe(0);
  });
});
