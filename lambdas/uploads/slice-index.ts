import type { ByteSink } from './byte-sink';
import { vocabularyFor, type ResultRows } from './results';

// Any slice of the processed file is a subsequence of one file finalize writes, the slice base:
// every row ranked by its best status (ties in file order) with the identity column when an
// upload has one to add (the `sort=best_status&include_identity=true` slice). Next to it, this
// index: for each line of the base, its row, where it sits, which statuses the row holds (a bit per
// status of the upload's vocabulary) and its identity (to drop that column), and the neutralized
// text of the lines a formula-looking cell makes differ (an object of its own). A slice is then the header and the
// chosen lines, read with ranged GETs and copied in the chosen order (slice-assembly.ts): in
// best-status order a filter's rows are a few runs of the base (one per status with one phone
// column); the original, the results and the layout are not read.

/** Where the processed file's writer put each line (in the order written), and the neutralized lines. */
export interface ProcessedLines {
  /** Bytes before the header line (a BOM). */
  headerStart: number;
  headerEnd: number;
  /** Per line: its row (file order), its first byte and the byte after it (its line break excluded). */
  row: Uint32Array;
  start: Uint32Array;
  end: Uint32Array;
  /** What the writer puts between lines. */
  eol: string;
  /** Whether the file ends with `eol` (as the original did). */
  finalEol: boolean;
  /** The header line, and each line by row, as neutralize_formulas writes them: only those it changes. */
  neutralHeader?: string;
  neutral: Record<number, string>;
  /** How many lines neutralize_formulas changes (the header counts). */
  neutralCount: number;
  /**
   * When set, the changed lines (but the header, kept in `neutralHeader`) are not kept in
   * `neutral`: they are written here as the `NeutralLines` JSON, in the order written, ended
   * with the header (processed-file.ts `streamTogether` sends it to its object a part at a time).
   */
  neutralOut?: ByteSink;
}

/** A record for writeProcessedBytes to fill. */
export const processedLines = (neutralOut?: ByteSink): ProcessedLines => ({
  headerStart: 0,
  headerEnd: 0,
  row: new Uint32Array(0),
  start: new Uint32Array(0),
  end: new Uint32Array(0),
  eol: '\n',
  finalEol: false,
  neutral: {},
  neutralCount: 0,
  ...(neutralOut ? { neutralOut } : {}),
});

/** The lines neutralize_formulas changes, as it writes them (their own object: read only for such a slice). */
export interface NeutralLines {
  header?: string;
  /** By row. */
  rows: Record<number, string>;
}

interface IndexMeta {
  rows: number;
  eol: string;
  finalEol: boolean;
  headerStart: number;
  headerEnd: number;
  /** How many lines neutralize_formulas changes (the header counts): none, and its slices are the plain ones. */
  neutralLines: number;
  /** The statuses mask bits count in (the upload's vocabulary). */
  vocabulary: readonly string[];
  /** Whether the base holds an identity column the slices without include_identity drop (identity, one phone column). */
  identityColumn: boolean;
  /** The identity cells, as the base writes them (codes of `identity`). */
  identities: string[];
}

export interface SliceIndex extends IndexMeta {
  /** Per line of the base (best status first): its row in the original's order. */
  row: Uint32Array;
  start: Uint32Array;
  end: Uint32Array;
  /** A bit per status of `vocabulary` any of the row's numbers holds (Unknown also for a row with none). */
  mask: Uint16Array;
  /** A code into `identities`. */
  identity: Uint8Array;
}

/** Statuses as a mask over the vocabulary; statuses outside it add nothing (no row can hold them). */
export function statusMask(vocabulary: readonly string[], statuses: Iterable<string>): number {
  let mask = 0;
  for (const status of statuses) {
    const bit = vocabulary.indexOf(status);
    if (bit >= 0) mask |= 1 << bit;
  }
  return mask;
}

/** The index of the slice base from where its writer put each line and the rows' results. */
export function buildSliceIndex(lines: ProcessedLines, results: ResultRows, phoneColumns: number, identity: boolean): SliceIndex {
  const n = results.length;
  if (lines.row.length !== n) throw new Error(`slice index: ${lines.row.length} lines for ${n} rows`);
  const vocabulary = vocabularyFor(identity);
  if (vocabulary.length > 16) throw new Error('slice index: more than 16 statuses');
  const bitOf = new Map(vocabulary.map((status, bit) => [status, 1 << bit]));
  const unknownBit = bitOf.get('Unknown') ?? 0;
  const identityColumn = identity && phoneColumns === 1;
  const mask = new Uint16Array(n);
  const codes = new Uint8Array(n);
  const identities: string[] = [];
  for (let p = 0; p < n; p++) {
    const r = results.at(lines.row[p]!)!;
    let m = r.best === 'Unknown' ? unknownBit : 0;
    for (const cell of r.cells) if (cell) m |= bitOf.get(cell.status) ?? 0;
    mask[p] = m;
    if (identityColumn) {
      // As processed-file.ts writes the Service_Identity cell.
      const text = r.cells[0]?.identity ?? r.bestIdentity ?? 'Unknown';
      let code = identities.indexOf(text);
      if (code === -1) {
        if (identities.length >= 256) throw new Error('slice index: more than 256 identities');
        code = identities.push(text) - 1;
      }
      codes[p] = code;
    }
  }
  const { headerStart, headerEnd, eol, finalEol, neutralCount } = lines;
  return {
    rows: n,
    headerStart,
    headerEnd,
    eol,
    finalEol,
    neutralLines: neutralCount,
    vocabulary,
    identityColumn,
    identities,
    row: lines.row,
    start: lines.start,
    end: lines.end,
    mask,
    identity: codes,
  };
}

/** The neutralized lines the writer recorded, as their object stores them. */
export function neutralLinesOf(lines: ProcessedLines): NeutralLines {
  return { ...(lines.neutralHeader === undefined ? {} : { header: lines.neutralHeader }), rows: lines.neutral };
}

// The stored form: a 4-byte length, the metadata as JSON, padding to 4 bytes, then the arrays
// (little-endian, as every Lambda architecture is): read without decoding, as views.
const ARRAYS = ['row', 'start', 'end', 'mask', 'identity'] as const;
const WIDTH = { row: 4, start: 4, end: 4, mask: 2, identity: 1 } as const;

export function serializeSliceIndex(index: SliceIndex): Buffer {
  const { row: _r, start: _s, end: _e, mask: _m, identity: _i, ...meta } = index;
  const json = Buffer.from(JSON.stringify({ v: 2, ...meta }), 'utf8');
  const head = 4 + json.length + ((4 - ((4 + json.length) % 4)) % 4);
  const out = Buffer.alloc(head + ARRAYS.reduce((n, a) => n + index[a].byteLength, 0));
  out.writeUInt32LE(json.length, 0);
  json.copy(out, 4);
  let at = head;
  for (const a of ARRAYS) {
    const view = index[a];
    out.set(new Uint8Array(view.buffer, view.byteOffset, view.byteLength), at);
    at += view.byteLength;
  }
  return out;
}

export function parseSliceIndex(stored: Buffer): SliceIndex {
  // Views need an aligned offset: a pooled Buffer may not start on one.
  const bytes = stored.byteOffset % 4 === 0 ? stored : Buffer.from(stored);
  if (bytes.length < 4) throw new Error('slice index: truncated');
  const length = bytes.readUInt32LE(0);
  if (4 + length > bytes.length) throw new Error('slice index: truncated');
  const meta = JSON.parse(bytes.subarray(4, 4 + length).toString('utf8')) as IndexMeta & { v: number };
  if (meta.v !== 2) throw new Error(`slice index version ${String(meta.v)} is not known`);
  const { v: _v, ...rest } = meta;
  const n = rest.rows;
  let at = bytes.byteOffset + 4 + length + ((4 - ((4 + length) % 4)) % 4);
  if (at - bytes.byteOffset + n * ARRAYS.reduce((w, a) => w + WIDTH[a], 0) !== bytes.length) throw new Error('slice index: the arrays do not hold one entry per row');
  const view = <T>(make: new (b: ArrayBufferLike, o: number, l: number) => T, width: number): T => {
    const out = new make(bytes.buffer, at, n);
    at += n * width;
    return out;
  };
  return { ...rest, row: view(Uint32Array, 4), start: view(Uint32Array, 4), end: view(Uint32Array, 4), mask: view(Uint16Array, 2), identity: view(Uint8Array, 1) };
}
