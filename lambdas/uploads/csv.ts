// RFC 4180 reading for uploads: quoted fields with embedded commas, quotes ("") and newlines, CRLF
// or LF record ends, a leading UTF-8 BOM. Each record keeps the byte-exact span of its source text
// so the processed file can append columns without re-quoting anything the customer sent.

export interface CsvRecord {
  fields: string[];
  /** Offsets into the text: the record's content (without its line ending) and the line ending. */
  start: number;
  end: number;
  eol: string;
}

export interface ParsedCsv {
  bom: boolean;
  records: CsvRecord[];
}

export class CsvSyntaxError extends Error {
  override name = 'CsvSyntaxError';
}

// How many times this process has parsed a CSV: the bench holds "the original is parsed once per upload".
let parses = 0;
export const csvParseCount = (): number => parses;

export function parseCsv(input: string): ParsedCsv {
  parses++;
  const bom = input.charCodeAt(0) === 0xfeff;
  const text = input;
  const records: CsvRecord[] = [];
  let i = bom ? 1 : 0;
  const n = text.length;
  while (i < n) {
    const start = i;
    const fields: string[] = [];
    let eol = '';
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 34 /* " */) {
        let j = i + 1;
        let out = '';
        let segment = j;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) throw new CsvSyntaxError(`Unterminated quoted field starting at character ${i}`);
          if (text.charCodeAt(q + 1) === 34) {
            out += text.slice(segment, q + 1);
            j = q + 2;
            segment = j;
            continue;
          }
          out += text.slice(segment, q);
          i = q + 1;
          break;
        }
        value = out;
        // Tolerate stray characters after a closing quote up to the delimiter, as most producers' readers do.
        while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === 44 || c === 10 || c === 13) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      fields.push(value);
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n) {
          fields.push('');
          break;
        }
        continue;
      }
      if (c === 13 && text.charCodeAt(i + 1) === 10) {
        eol = '\r\n';
        i += 2;
      } else {
        eol = c === 13 ? '\r' : '\n';
        i++;
      }
      break;
    }
    const end = i - eol.length;
    // A blank line is not a record; `""` is (one empty field), as RFC 4180 and csv-parse read it.
    if (end > start) records.push({ fields, start, end, eol });
  }
  return { bom, records };
}

// Writing. Customer values are written so that a reader gets them back exactly: quoted only where
// CSV syntax needs it, never altered. Cells the service itself writes (status columns) go through
// safeCsvCell so they can never be read as a formula; customer cells get that treatment only when
// the downloader asks for it (neutralize_formulas), because it changes values such as +12125550143.

// Leading or trailing whitespace is quoted because many readers trim unquoted fields; a leading BOM
// because a reader would take it for the file's byte order mark.
const NEEDS_QUOTES = /[",\r\n]|^[\s\uFEFF]|\s$/;

/** OWASP CSV injection: a cell starting with one of these is run as a formula by spreadsheets. */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A value written so that any RFC 4180 reader gets it back byte for byte. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function startsLikeFormula(value: string): boolean {
  return FORMULA_START.test(value);
}

/**
 * OWASP's recommendation for a cell a spreadsheet would run: prefix a single quote and quote the
 * cell, escaping quotes. Other cells are written as csvField writes them.
 */
export function safeCsvCell(value: string): string {
  return startsLikeFormula(value) ? `"'${value.replaceAll('"', '""')}"` : csvField(value);
}

/** A record of customer values, kept exactly (a lone empty value is `""`, not a blank line). */
export function csvLine(values: string[]): string {
  return values.length === 1 && values[0] === '' ? '""' : values.map(csvField).join(',');
}
