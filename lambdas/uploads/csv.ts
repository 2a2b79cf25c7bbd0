// RFC 4180 reading for uploads: quoted fields with embedded commas, quotes ("") and newlines, CRLF
// or LF record ends, a leading UTF-8 BOM. Each record keeps the byte-exact span of its source text
// so the processed file can append columns without re-quoting anything the customer sent.

export interface CsvRecord {
  /** Each field's value; '' for a field the reader was told not to read (CsvRecordReader.readOnly). */
  fields: string[];
  /** Offsets into the text: the record's content (without its line ending) and the line ending. */
  start: number;
  end: number;
  eol: string;
  /** A field starts like a formula (startsLikeFormula), found as the record is read. */
  formula: boolean;
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
  const records: CsvRecord[] = [];
  scanRecords(input, bom ? 1 : 0, 0, true, (record) => records.push(record));
  return { bom, records };
}

/**
 * The fields of one record written out whole (a line of a file this service wrote, its line break
 * excluded), read as parseCsv reads records; null when the text is not exactly one record. Not a
 * parse of an upload: csvParseCount does not count it.
 */
export function recordFields(text: string): string[] | null {
  let only: CsvRecord | null = null;
  let count = 0;
  try {
    scanRecords(text, 0, 0, true, (record) => {
      only = record;
      count++;
    });
  } catch (error) {
    if (error instanceof CsvSyntaxError) return null;
    throw error;
  }
  const record = only as CsvRecord | null;
  return count === 1 && record && record.start === 0 && record.end === text.length ? record.fields : null;
}

/**
 * The records of `text` from `from` on, each handed to `emit` with offsets `base` + its position in
 * `text`. Not `final`: the text is a prefix of the file, so a record that reaches its end (no line
 * ending yet, an open quote, a CR that may be half of a CRLF, a comma that may end the file) may
 * still grow; it is left for the next call, and the return value is where it starts. `final`: the
 * text's end is the file's (parseCsv), so that record is read as it stands. `columns.read`, looked
 * up at each record (`emit` may set it): when set, only the fields at the positions it marks are
 * made into strings (the others are '', still delimited, counted and looked at for a formula
 * start): create reads 3 of a file's 7 columns.
 */
function scanRecords(text: string, from: number, base: number, final: boolean, emit: (record: CsvRecord) => void, columns: ReadColumns = ALL_COLUMNS, into: CsvRecord | null = null): number {
  let i = from;
  const n = text.length;
  // Where the next comma, LF and CR are (n: none left). An unquoted field ends at the nearest of
  // the three; each is found by the engine's native search and looked for again only once passed,
  // so the text is searched once per character, not compared three times a character in a loop.
  let comma = -1;
  let lf = -1;
  let cr = -1;
  while (i < n) {
    const start = i;
    const fields: string[] = into ? into.fields : [];
    let count = 0;
    const read = columns.read;
    let eol = '';
    let formula = false;
    for (;;) {
      // A field `read` leaves out is delimited, and its first character looked at, but never made
      // a string; `head` is that first character (-1 while the value is empty).
      const wanted = read === null || read[count] === 1;
      let value = '';
      let head = -1;
      if (text.charCodeAt(i) === 34 /* " */) {
        let j = i + 1;
        let segment = j;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            if (!final) return start;
            throw new CsvSyntaxError(`Unterminated quoted field starting at character ${base + i}`);
          }
          if (text.charCodeAt(q + 1) === 34) {
            if (wanted) value += text.slice(segment, q + 1);
            else if (head < 0) head = text.charCodeAt(segment);
            j = q + 2;
            segment = j;
            continue;
          }
          // A closing quote as the text's last character may be the first of an escaped pair.
          if (!final && q + 1 >= n) return start;
          if (wanted) value += text.slice(segment, q);
          else if (head < 0 && q > segment) head = text.charCodeAt(segment);
          i = q + 1;
          break;
        }
        // Tolerate stray characters after a closing quote up to the delimiter, as most producers' readers do.
        if (wanted) while (i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
        else
          for (; i < n && text[i] !== ',' && text[i] !== '\n' && text[i] !== '\r'; i++) {
            if (head < 0) head = text.charCodeAt(i);
          }
      } else {
        if (comma < i) comma = nextAt(text, ',', i);
        if (lf < i) lf = nextAt(text, '\n', i);
        if (cr < i) cr = nextAt(text, '\r', i);
        const j = comma < lf ? (comma < cr ? comma : cr) : lf < cr ? lf : cr;
        if (wanted) value = text.slice(i, j);
        else if (j > i) head = text.charCodeAt(i);
        i = j;
      }
      fields[count++] = value;
      if (!formula && formulaStart(wanted ? value.charCodeAt(0) : head)) formula = true;
      if (i >= n) {
        if (!final) return start;
        break;
      }
      const c = text.charCodeAt(i);
      if (c === 44) {
        i++;
        if (i >= n) {
          if (!final) return start;
          fields[count++] = '';
          break;
        }
        continue;
      }
      if (c === 13 && i + 1 >= n && !final) return start;
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
    if (fields.length !== count) fields.length = count;
    // A blank line is not a record; `""` is (one empty field), as RFC 4180 and csv-parse read it.
    if (end <= start) continue;
    if (!into) emit({ fields, start: base + start, end: base + end, eol, formula });
    else {
      into.start = base + start;
      into.end = base + end;
      into.eol = eol;
      into.formula = formula;
      emit(into);
    }
  }
  return i;
}

/** Which fields of a record are made into strings: every one when `read` is null, else those it marks with 1. */
interface ReadColumns {
  read: Uint8Array | null;
}

const ALL_COLUMNS: ReadColumns = { read: null };

/** The position of the first `char` at or after `from`, or the text's length when there is none. */
function nextAt(text: string, char: string, from: number): number {
  const at = text.indexOf(char, from);
  return at === -1 ? text.length : at;
}

/**
 * parseCsv over a file given in pieces of text (a UTF-8 stream decoded as it arrives): the same
 * records, offsets into the whole text, handed to `emit` as each is complete, holding only the
 * record under way. The record handed to `emit` (its object and its fields array) is the reader's
 * own, filled again for the next record: `emit` copies what it keeps (a new object and array per
 * record were most of what create allocated per row). A piece that completes no record is not
 * scanned again until the text held has doubled, so a record spanning many pieces (a long quoted
 * field) costs linear time, not quadratic.
 */
export class CsvRecordReader {
  private held = '';
  private base = 0;
  private retryAt = 0;
  private started = false;
  private readonly columns: ReadColumns = { read: null };
  private readonly record: CsvRecord = { fields: [], start: 0, end: 0, eol: '', formula: false };
  bom = false;

  constructor(private readonly emit: (record: CsvRecord) => void) {
    parses++;
  }

  /**
   * From the next record on (also when called from `emit`), only the fields at `columns` are made into strings; the others read
   * as '' (still counted, and still looked at for a formula start). A reader that keeps 3 of a
   * file's 7 columns leaves the others' strings unmade.
   */
  readOnly(columns: readonly number[]): void {
    const read = new Uint8Array(columns.length ? Math.max(...columns) + 1 : 0);
    for (const c of columns) read[c] = 1;
    this.columns.read = read;
  }

  push(text: string): void {
    if (!text) return;
    if (this.started && this.held && this.retryAt === 0) {
      // The record held from the last piece most often ends at the new piece's first LF: it is
      // read from the held text and that much of the piece, and the rest of the piece where it
      // lies. Joining the held text to the whole piece copies the piece into a string of its own at
      // the scan's first look (and reads it through the join at every character after).
      const lf = text.indexOf('\n');
      if (lf >= 0) {
        const head = this.held + text.slice(0, lf + 1);
        const done = scanRecords(head, 0, this.base, false, this.emit, this.columns, this.record);
        if (done === head.length) {
          const base = this.base + head.length - (lf + 1);
          const next = scanRecords(text, lf + 1, base, false, this.emit, this.columns, this.record);
          this.held = text.slice(next);
          this.base = base + next;
          return;
        }
        // It goes on past the LF (a quoted field): joined to the rest of the piece as below.
        this.held = head.slice(done);
        this.base += done;
        text = text.slice(lf + 1);
      }
    }
    this.held += text;
    if (!this.started) {
      this.started = true;
      this.bom = this.held.charCodeAt(0) === 0xfeff;
      if (this.bom) this.skip(1);
    }
    if (this.held.length < this.retryAt) return;
    const next = scanRecords(this.held, 0, this.base, false, this.emit, this.columns, this.record);
    this.retryAt = next === 0 ? this.held.length * 2 : 0;
    this.skip(next);
  }

  /** The end of the file: the record under way is read as it stands. */
  end(): void {
    const next = scanRecords(this.held, 0, this.base, true, this.emit, this.columns, this.record);
    this.skip(next);
  }

  private skip(chars: number): void {
    if (chars === 0) return;
    this.held = this.held.slice(chars);
    this.base += chars;
  }
}

// Writing. Customer values are written so that a reader gets them back exactly: quoted only where
// CSV syntax needs it, never altered. Cells the service itself writes (status columns) go through
// safeCsvCell so they can never be read as a formula; customer cells get that treatment only when
// the downloader asks for it (neutralize_formulas), because it changes values such as +12125550143.

// Leading or trailing whitespace is quoted because many readers trim unquoted fields; a leading BOM
// because a reader would take it for the file's byte order mark.
const NEEDS_QUOTES = /[",\r\n]|^[\s\uFEFF]|\s$/;


/** A value written so that any RFC 4180 reader gets it back byte for byte. */
export function csvField(value: string): string {
  return NEEDS_QUOTES.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * OWASP CSV injection: a cell starting with `=`, `+`, `-`, `@`, a tab or a carriage return is run as
 * a formula by spreadsheets. Read by char code: create asks it of every cell of a file.
 */
export function startsLikeFormula(value: string): boolean {
  return formulaStart(value.charCodeAt(0));
}

function formulaStart(code: number): boolean {
  switch (code) {
    case 61: // =
    case 43: // +
    case 45: // -
    case 64: // @
    case 9: // tab
    case 13: // CR
      return true;
    default:
      return false;
  }
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
