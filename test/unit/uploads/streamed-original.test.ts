import { describe, expect, it } from 'vitest';
import { parseCsv } from '../../../lambdas/uploads/csv';
import { layoutOf } from '../../../lambdas/uploads/work-file';
import { storedIndexOf } from '../../support/layout-index';
import { cellResult, ResultTable, type ItemAnswer } from '../../../lambdas/uploads/results';
import { streamTogether, writeProcessedBytes, type SliceOptions } from '../../../lambdas/uploads/processed-file';
import { byteSpans, streamByteSpans } from '../../../lambdas/uploads/byte-offsets';
import { StreamedOriginal } from '../../../lambdas/uploads/original-bytes';
import { processedLines } from '../../../lambdas/uploads/slice-index';
import { ByteSink } from '../../../lambdas/uploads/byte-sink';
import type { ObjectWriter } from '../../../lambdas/platform/blob';
import { ANSWER_INTENTS, IDENTITY_BANDS, type AnswerIntent, type IdentityBand } from '../../../lambdas/classification';

// Issue 30 item 3, Finalize: the original is read from the store as a stream, a pass at a time,
// never held whole; the processed file and every slice written from it are byte for byte what the
// whole-file writer gives, whatever the stream's pieces (a UTF-8 sequence cut between two).

function rng(seed: number): (n: number) => number {
  let s = seed >>> 0;
  return (n) => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s % n;
  };
}

const CELLS = ['Ada', 'Zoë 🦊', '"Smith, Jr"', '=SUM(A1)', '+1 212 555 0143', '', '"two\r\nlines"', 'x'.repeat(300), 'ü'.repeat(40)];

function upload(seed: number) {
  const r = rng(seed);
  const eol = ['\r\n', '\n'][r(2)]!;
  const lines = ['id,phone0,phone1,notes'];
  const rows = 100 + r(300);
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
  return { bytes: Buffer.from(text, 'utf8'), skip: bom ? 3 : 0, layout, results, identity, pieceBytes: 1 + r(700) };
}

/** The bytes as a store's stream answers them: pieces of `size` (the last shorter). */
async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield new Uint8Array(bytes.subarray(at, at + size));
}

function collector() {
  const parts: Buffer[] = [];
  const writer: ObjectWriter = {
    async part(bytes) {
      parts.push(Buffer.from(bytes));
    },
    async close(last) {
      parts.push(Buffer.from(last));
    },
  };
  return { writer, object: () => Buffer.concat(parts) };
}

const OPTIONS: SliceOptions[] = [{}, { sort: 'best_status', includeIdentity: true }, { statuses: new Set(['Likely Answer', 'Unknown']) }, { sort: 'best_status' }, { neutralizeFormulas: true }, { statuses: new Set(['Likely Answer']), sort: 'best_status' }];

describe('the original read as a stream by finalize', () => {
  it('finds each record’s bytes as the whole-file pass does, whatever the pieces', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const u = upload(seed);
      // Pieces of 1–3 bytes cut every UTF-8 sequence (slow: a few uploads); the others, any piece.
      for (const size of seed <= 3 ? [1, 2, 3] : [u.pieceBytes, u.bytes.length]) {
        expect(await streamByteSpans(pieces(u.bytes, size), u.skip, u.layout)).toEqual(byteSpans(u.bytes, u.skip, u.layout));
      }
    }
  });

  it('gives the processed file and every slice byte for byte, holding a window of a piece and a record', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const u = upload(seed);
      const original = new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, u.pieceBytes)));
      const source = { original, spans: await streamByteSpans(pieces(u.bytes, u.pieceBytes), u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results };
      const longest = Math.max(...Array.from(source.spans.start, (s, i) => source.spans.end[i]! - s));
      for (const options of OPTIONS) {
        const whole = writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, options);
        const out = collector();
        let most = 0;
        const watched = { ...out.writer, part: async (b: Buffer) => ((most = Math.max(most, original.held)), out.writer.part(b)) };
        await streamTogether(source, [{ options, to: { writer: watched, sink: new ByteSink(64), partBytes: 512 } }]);
        expect(out.object().equals(whole), `seed ${seed} ${JSON.stringify(options)}`).toBe(true);
        expect(most).toBeLessThanOrEqual(2 * u.pieceBytes + longest);
      }
    }
  });

  it('reads the file in order once, and a sorted slice once per rank it holds', async () => {
    const u = upload(7);
    const original = new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, 100)));
    const source = { original, spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results };
    await streamTogether(source, [{ options: {}, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512 } }]);
    expect(original.passes).toBe(1);
    const ranks = new Set(Array.from({ length: u.results.length }, (_, i) => u.results.at(i)!.best)).size;
    await streamTogether(source, [{ options: { sort: 'best_status' }, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512 } }]);
    expect(original.passes).toBe(1 + ranks);
  });

  it('writes files side by side from one reading: each byte for byte, those in file order in one pass, the sorted ones a pass per rank', async () => {
    for (let seed = 1; seed <= 12; seed++) {
      const u = upload(seed);
      const original = new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, u.pieceBytes)));
      const source = { original, spans: await streamByteSpans(pieces(u.bytes, u.pieceBytes), u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results };
      const longest = Math.max(...Array.from(source.spans.start, (s, i) => source.spans.end[i]! - s));
      const ranks = new Set(Array.from({ length: u.results.length }, (_, i) => u.results.at(i)!.best)).size;
      const base: SliceOptions = { sort: 'best_status', includeIdentity: true };
      const groups: [SliceOptions[], number][] = [
        [[{}, { statuses: new Set(['Likely Answer', 'Unknown']) }, { neutralizeFormulas: true }], 1],
        [[base, { sort: 'best_status' }], ranks],
        // File order and sorted together: the file-order ones ride along the first rank's pass.
        [[{}, base, { statuses: new Set(['Likely Answer']) }, { sort: 'best_status' }], ranks],
      ];
      for (const [group, passes] of groups) {
        const before = original.passes;
        let most = 0;
        const outs = group.map(() => collector());
        await streamTogether(
          source,
          group.map((options, i) => ({ options, to: { writer: { ...outs[i]!.writer, part: async (b: Buffer) => ((most = Math.max(most, original.held)), outs[i]!.writer.part(b)) }, sink: new ByteSink(64), partBytes: 512 } })),
        );
        await original.close();
        group.forEach((options, i) => expect(outs[i]!.object().equals(writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, options)), `seed ${seed} ${JSON.stringify(options)}`).toBe(true));
        expect(original.passes - before, `seed ${seed} ${group.length} files`).toBe(passes);
        expect(most).toBeLessThanOrEqual(2 * u.pieceBytes + longest);
      }
    }
  });

  it('records the slice base’s places and neutralized lines written beside another file as written alone', async () => {
    const u = upload(11);
    const base: SliceOptions = { sort: 'best_status', includeIdentity: true };
    const alone = processedLines(new ByteSink(64));
    const aloneNeutral = collector();
    await streamTogether({ original: new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, 50))), spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results }, [{ options: base, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512, neutralWriter: aloneNeutral.writer }, lines: alone }]);
    const beside = processedLines(new ByteSink(64));
    const besideNeutral = collector();
    const source = { original: new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, 50))), spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results };
    await streamTogether(source, [
      { options: base, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512, neutralWriter: besideNeutral.writer }, lines: beside },
      { options: { sort: 'best_status' }, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512 } },
    ]);
    // The sinks' memory past what they drained is not part of what was recorded.
    expect({ ...beside, neutralOut: null }).toEqual({ ...alone, neutralOut: null });
    expect(besideNeutral.object().equals(aloneNeutral.object())).toBe(true);
    expect(alone.neutralCount).toBeGreaterThan(0);
  });

  it('refuses two files side by side in one sink', async () => {
    const u = upload(2);
    const sink = new ByteSink(64);
    const source = { original: new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, 50))), spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results };
    await expect(streamTogether(source, [{}, { sort: 'best_status' as const }].map((options) => ({ options, to: { writer: collector().writer, sink, partBytes: 512 } })))).rejects.toThrow(/a sink each/);
  });

  it('records the slice index’s places as the whole-file writer does', async () => {
    const u = upload(3);
    const base: SliceOptions = { sort: 'best_status', includeIdentity: true };
    const whole = processedLines();
    writeProcessedBytes(u.bytes, u.skip, u.layout, ['phone0', 'phone1'], u.identity, u.results, base, undefined, whole);
    const streamed = processedLines();
    const original = new StreamedOriginal(() => Promise.resolve(pieces(u.bytes, 37)));
    await streamTogether({ original, spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results }, [{ options: base, to: { writer: collector().writer, sink: new ByteSink(64), partBytes: 512 }, lines: streamed }]);
    expect(streamed).toEqual(whole);
  });

  it('refuses an original shorter than its layout (truncated in the store), never writing a short file', async () => {
    const u = upload(5);
    const cut = u.bytes.subarray(0, u.bytes.length - 50);
    await expect(streamByteSpans(pieces(cut, 64), u.skip, u.layout)).rejects.toThrow(/ends before/);
    const original = new StreamedOriginal(() => Promise.resolve(pieces(cut, 64)));
    const out = collector();
    let closed = false;
    const writer = { part: out.writer.part, close: async () => void (closed = true) };
    await expect(streamTogether({ original, spans: byteSpans(u.bytes, u.skip, u.layout), layout: u.layout, phoneColumns: ['phone0', 'phone1'], identity: u.identity, results: u.results }, [{ options: {}, to: { writer, sink: new ByteSink(64), partBytes: 512 } }])).rejects.toThrow(/ends at byte/);
    expect(closed).toBe(false);
  });

  it('reads a head shorter than asked from a tiny original, and goes on from the head in the same pass', async () => {
    const original = new StreamedOriginal(() => Promise.resolve(pieces(Buffer.from('\xEF\xBB', 'latin1'), 1)));
    expect([...(await original.head(3))]).toEqual([0xef, 0xbb]);
    await original.close();
    const bom = new StreamedOriginal(() => Promise.resolve(pieces(Buffer.from('\uFEFFa,b', 'utf8'), 2)));
    expect([...(await bom.head(3))]).toEqual([0xef, 0xbb, 0xbf]);
    const out = new ByteSink(8);
    await bom.load(3, 6);
    bom.copy(out, 3, 6);
    expect(out.bytes().toString()).toBe('a,b');
    expect(bom.passes).toBe(1);
  });
});
