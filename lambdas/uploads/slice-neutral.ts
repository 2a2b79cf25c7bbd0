import { recordFields, safeCsvCell, startsLikeFormula } from './csv';
import type { Piece } from './slice-assembly';
import type { NeutralLines, SliceIndex } from './slice-index';

// The lines neutralize_formulas changes, found in the slice base's own lines: a neutralize_formulas
// slice then reads no more than any other (before, the whole neutralized-lines object finalize
// writes: 7.8 MB at 250,000 rows of phones written +1…, read and parsed on each first request).
//
// What the processed file's writer gives such a line (processed-file.ts): the record's fields
// through safeCsvCell when any of them looks like a formula, then the same tail as the base line
// (padding commas and the added cells, each written by safeCsvCell). The base line is the record's
// bytes then that tail, so its fields are the record's, empty padding, then the added cells; each
// through safeCsvCell gives the writer's text exactly when safeCsvCell gives an added cell back as
// written: true of a row's cells (statuses, answer intents, identities: none looks like a formula,
// none starts with a quote), not always of the header's (a phone column named like a formula adds a
// column name it rewrote), so the header is taken from here only when none of its fields starts
// with a quote, and otherwise from finalize's object.

const QUOTE = "'";

/** A line's neutralized text, or undefined when no field of it looks like a formula; null when it cannot be told from the line. */
function neutralText(line: string, header: boolean): string | undefined | null {
  const fields = recordFields(line);
  if (!fields) return null;
  if (!fields.some(startsLikeFormula)) return undefined;
  if (header && fields.some((f) => f.startsWith(QUOTE))) return null;
  return fields.map(safeCsvCell).join(',');
}

/**
 * The neutralized lines of `lines` (and of the header), from the pieces of the base that hold them
 * (byteRanges); null when one of them cannot be told from the base (the caller reads finalize's object).
 */
export function neutralLinesFromBase(index: SliceIndex, lines: Uint32Array, pieces: Piece[]): NeutralLines | null {
  const sorted = [...pieces].sort((a, b) => a.from - b.from);
  const text = (start: number, end: number): string | null => {
    const piece = sorted.findLast((p) => p.from <= start);
    if (!piece || piece.from + piece.bytes.length < end) return null;
    return piece.bytes.toString('utf8', start - piece.from, end - piece.from);
  };
  const out: NeutralLines = { rows: {} };
  const headerLine = text(index.headerStart, index.headerEnd);
  if (headerLine === null) return null;
  const header = neutralText(headerLine, true);
  if (header === null) return null;
  if (header !== undefined) out.header = header;
  for (const p of lines) {
    const line = text(index.start[p]!, index.end[p]!);
    if (line === null) return null;
    const neutral = neutralText(line, false);
    if (neutral === null) return null;
    if (neutral !== undefined) out.rows[index.row[p]!] = neutral;
  }
  return out;
}
