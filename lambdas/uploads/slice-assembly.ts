import { ByteSink } from './byte-sink';
import { safeCsvCell } from './csv';
import type { SliceOptions } from './processed-file';
import { statusMask, type NeutralLines, type SliceIndex } from './slice-index';

// A slice assembled from the slice base and its index (slice-index.ts): which lines of the base it
// holds and in what order, which byte ranges of the base hold them, and the slice's bytes from
// those ranges. The bytes are those the processed file's writer gives the same options
// (processed-file.ts), which the tests hold.

/**
 * The base's lines a slice holds, in its order: those whose row holds any of `statuses` (all
 * without), ranked by best status as the base is (ties in file order), or in file order.
 */
export function sliceLines(index: SliceIndex, options: Pick<SliceOptions, 'statuses' | 'sort'>): Uint32Array {
  const n = index.rows;
  const wanted = options.statuses ? statusMask(index.vocabulary, options.statuses) : -1;
  if (options.sort === 'best_status') {
    let count = 0;
    for (let p = 0; p < n; p++) if (index.mask[p]! & wanted) count++;
    const lines = new Uint32Array(count);
    let at = 0;
    for (let p = 0; p < n; p++) if (index.mask[p]! & wanted) lines[at++] = p;
    return lines;
  }
  // File order: each row's line, kept rows only.
  const lineOfRow = new Int32Array(n).fill(-1);
  let count = 0;
  for (let p = 0; p < n; p++) {
    if (!(index.mask[p]! & wanted)) continue;
    lineOfRow[index.row[p]!] = p;
    count++;
  }
  const lines = new Uint32Array(count);
  let at = 0;
  for (let row = 0; row < n; row++) if (lineOfRow[row]! >= 0) lines[at++] = lineOfRow[row]!;
  return lines;
}

/** Lines further apart than this are read with separate ranged GETs; closer, with one (the bytes between are read and skipped). */
const GAP_BYTES = 256 * 1024;
/** More ranges than this and the whole span is read in one GET. */
const MAX_RANGES = 24;

/** The byte ranges [start, end) of the base that hold the header and `lines`: few and in order. */
export function byteRanges(index: SliceIndex, lines: Uint32Array, gap = GAP_BYTES, most = MAX_RANGES): [number, number][] {
  const sorted = Uint32Array.from(lines).sort();
  const ranges: [number, number][] = [[0, index.headerEnd]];
  for (const p of sorted) {
    const last = ranges[ranges.length - 1]!;
    const [start, end] = [index.start[p]!, index.end[p]!];
    if (start - last[1] <= gap) last[1] = Math.max(last[1], end);
    else ranges.push([start, end]);
  }
  return ranges.length > most ? [[0, ranges[ranges.length - 1]![1]]] : ranges;
}

/** Bytes of the base read from `from` on. */
export interface Piece {
  from: number;
  bytes: Buffer;
}

/**
 * The slice's bytes from the pieces of the base that hold its lines (byteRanges), and with
 * neutralize_formulas the lines it changes (needed when the index counts any).
 */
export function assembleSlice(index: SliceIndex, lines: Uint32Array, pieces: Piece[], options: SliceOptions, neutral?: NeutralLines): Buffer {
  const neutralize = options.neutralizeFormulas === true && index.neutralLines > 0;
  if (neutralize && !neutral) throw new Error('slice: neutralize_formulas needs the neutralized lines');
  // The base holds the identity column when the upload has one to add: dropped unless asked for.
  const drop = index.identityColumn && options.includeIdentity !== true;
  const tails = index.identities.map((text) => Buffer.byteLength(',' + safeCsvCell(text)));
  const headerTail = drop ? Buffer.byteLength(',Service_Identity') : 0;
  const sorted = [...pieces].sort((a, b) => a.from - b.from);
  const copy = (out: ByteSink, start: number, end: number): void => {
    // The last piece starting at or before `start` holds it (byteRanges covers every line).
    let lo = 0;
    let hi = sorted.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (sorted[mid]!.from <= start) lo = mid;
      else hi = mid - 1;
    }
    const piece = sorted[lo];
    if (!piece || piece.from > start || piece.from + piece.bytes.length < end) throw new Error(`slice: bytes ${start}-${end} of the base were not read`);
    out.copy(piece.bytes, start - piece.from, end - piece.from);
  };
  const writeNeutral = (out: ByteSink, text: string, tail: number): void => {
    const bytes = Buffer.from(text, 'utf8');
    out.copy(bytes, 0, bytes.length - tail);
  };
  let size = index.headerEnd + 64;
  for (const p of lines) size += index.end[p]! - index.start[p]! + index.eol.length;
  const out = new ByteSink(size);
  copy(out, 0, index.headerStart);
  if (neutralize && neutral?.header !== undefined) writeNeutral(out, neutral.header, headerTail);
  else copy(out, index.headerStart, index.headerEnd - headerTail);
  const eol = Buffer.from(index.eol, 'utf8');
  for (const p of lines) {
    out.copy(eol, 0, eol.length);
    const tail = drop ? tails[index.identity[p]!]! : 0;
    const text = neutralize ? neutral?.rows[index.row[p]!] : undefined;
    if (text !== undefined) writeNeutral(out, text, tail);
    else copy(out, index.start[p]!, index.end[p]! - tail);
  }
  if (index.finalEol) out.copy(eol, 0, eol.length);
  return out.bytes();
}

/** Whether a slice is a file finalize already wrote: every row, no rewritten cell, and the base's or the processed file's order and columns. */
export function storedAs(index: SliceIndex, lines: Uint32Array, options: SliceOptions): 'base' | 'processed' | null {
  if (lines.length !== index.rows) return null;
  if (options.neutralizeFormulas && index.neutralLines > 0) return null;
  const identity = index.identityColumn && options.includeIdentity === true;
  if (options.sort === 'best_status') return identity || !index.identityColumn ? 'base' : null;
  return identity ? null : 'processed';
}
