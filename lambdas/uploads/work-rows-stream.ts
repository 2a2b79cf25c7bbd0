import { readWorkRows, workHeaderOf, type StoredRows } from './work-file';
import { WorkV3Reader } from './work-file-v3';

// Prepare's reading of the work file (work-file.ts) as its body arrives: version 3's sections
// decoded a value at a time (work-file-v3.ts), version 2's lines of JSON each parsed a piece at a
// time, so neither the file's bytes nor a line's text is ever held whole. At 250,000 rows those
// were a 14 MB buffer and 4 + 10 MB of strings (V8's large objects, freed only by a full
// collection) beside the parsed rows.

const NEWLINE = 0x0a;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN = [0x5b, 0x7b];
const CLOSE = [0x5d, 0x7d];
const emptyElement = (): SyntaxError => new SyntaxError('the work file has an array with an empty element');

/**
 * The elements of one line's JSON array, from the bytes of the line as they come: at each piece,
 * the elements complete so far (up to the last comma between them) are parsed in one JSON.parse
 * and the rest is kept for the next. A line that is not an array (the names' `null`) is parsed
 * whole at its end; either way the values are JSON.parse's, and what JSON.parse refuses throws.
 */
class ArrayLine {
  private held: Buffer[] = [];
  /** Bytes of `held` scanned (brackets and strings) so far, and the scan's state there. */
  private scanned = 0;
  private heldBytes = 0;
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** Offset in the held bytes just past the last comma between elements; 0: none yet. */
  private cut = 0;
  private started = false;
  private isArray = false;
  /** Elements were parsed already: what is held continues the array after a comma. */
  private parsedAny = false;
  private values: unknown[] = [];

  push(bytes: Buffer): void {
    if (!bytes.length) return;
    if (!this.started) {
      this.started = true;
      this.isArray = bytes[0] === OPEN[0];
    }
    this.held.push(bytes);
    this.heldBytes += bytes.length;
    if (!this.isArray) return;
    this.scan(bytes);
    if (this.cut > 0) this.parseUpToCut();
  }

  /** The line's value: its array's elements, or what else it held (null). */
  end(): unknown {
    const rest = Buffer.concat(this.held, this.heldBytes).toString('utf8');
    this.held = [];
    if (!this.isArray) return JSON.parse(rest) as unknown;
    // What is left is the last elements and the closing bracket (or "[]" for an empty array).
    const text = this.parsedAny ? `[${rest}` : rest;
    const last = JSON.parse(text) as unknown;
    if (!Array.isArray(last)) throw new SyntaxError('the work file has a line that is not a JSON array');
    // "[" and the rest after a comma: an empty list there was a trailing comma.
    if (this.parsedAny && !last.length) throw emptyElement();
    for (const value of last) this.values.push(value);
    return this.values;
  }

  private scan(bytes: Buffer): void {
    let at = this.scanned;
    for (let i = 0; i < bytes.length; i++, at++) {
      const b = bytes[i]!;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (b === BACKSLASH) this.escaped = true;
        else if (b === QUOTE) this.inString = false;
      } else if (b === QUOTE) this.inString = true;
      else if (b === OPEN[0] || b === OPEN[1]) this.depth++;
      else if (b === CLOSE[0] || b === CLOSE[1]) this.depth--;
      else if (b === COMMA && this.depth === 1) this.cut = at + 1;
    }
    this.scanned = at;
  }

  /** Parses the held bytes up to the last comma (the complete elements) and keeps the rest. */
  private parseUpToCut(): void {
    const all = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
    // The first piece opens the array; later ones continue it, so they are given a bracket.
    const text = `${this.parsedAny ? '[' : ''}${all.toString('utf8', 0, this.cut - 1)}]`;
    this.parsedAny = true;
    const parsed = JSON.parse(text) as unknown[];
    // Between two commas (or the bracket and a comma) there must be an element: `[,` and `,,` are not JSON.
    if (!parsed.length) throw emptyElement();
    for (const value of parsed) this.values.push(value);
    const rest = all.subarray(this.cut);
    // A copy, so the piece the rest was cut from is not kept alive by it.
    this.held = rest.length ? [Buffer.from(rest)] : [];
    this.heldBytes = rest.length;
    this.scanned = rest.length;
    this.cut = 0;
  }
}

/**
 * The rows of a work file read from its body as it arrives (readWorkRows's answer, for any
 * version): a version 1 file (one JSON object, no newline) is read whole, as readWorkRows reads it.
 */
export async function readWorkRowsStream(body: AsyncIterable<Uint8Array>): Promise<StoredRows> {
  const head: Buffer[] = [];
  let line = 0;
  let v3: WorkV3Reader | null = null;
  let numbers: ArrayLine | null = null;
  let names: ArrayLine | null = null;
  const current = (): ArrayLine | null => (line === 1 ? numbers : line === 2 ? names : null);
  for await (const chunk of body) {
    let piece = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    if (v3) {
      v3.push(piece);
      continue;
    }
    while (piece.length) {
      const nl = line < 3 ? piece.indexOf(NEWLINE) : -1;
      const part = nl === -1 ? piece : piece.subarray(0, nl);
      if (line === 0) head.push(part);
      else current()?.push(part);
      if (nl === -1) break;
      piece = piece.subarray(nl + 1);
      if (line === 0) {
        const header = workHeaderOf(Buffer.concat(head));
        if (header.v === 3) {
          v3 = new WorkV3Reader(header);
          v3.push(piece);
          break;
        }
      }
      line++;
      if (line === 1) numbers = new ArrayLine();
      if (line === 2) names = new ArrayLine();
    }
    // Version 2's line 3 (the first cells) is not prepare's: the rest of the body is only drained.
  }
  if (v3) {
    const { numbers, names } = v3.end();
    return { numbers, names };
  }
  // No newline at all: a version 1 file, held in `head`.
  if (line === 0) return readWorkRows(Buffer.concat(head));
  if (!numbers || !names) throw new Error('the work file ends before its names');
  return { numbers: numbers.end() as StoredRows['numbers'], names: names.end() as StoredRows['names'] };
}
