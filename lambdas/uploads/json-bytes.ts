// A JSON list written straight into UTF-8 bytes, item by item, as create plans a file's rows. The
// rows' numbers, offsets and line ends are ASCII the planner knows needs no escaping, so they are
// written as bytes with no string made for them; only text from the file (names, formula-like
// rows) goes through a UTF-8 encode. Kept in fixed-size pieces, never one buffer that doubles: the
// whole layout of a 100 MB file is held at create, so a doubling's spare half would count.

const PIECE = 256 * 1024;

export class JsonBytes {
  private pieces: Buffer[] = [];
  private piece = Buffer.allocUnsafe(PIECE);
  private at = 0;
  private count = 0;

  /** `separator`: between items (a JSON list's comma; '' for a string written a character per item). */
  constructor(private readonly separator = ',') {}

  /** Starts an item: the separator unless it is the first. */
  item(): this {
    if (this.count++ > 0 && this.separator) this.ascii(this.separator);
    return this;
  }

  /** Text known to be ASCII (a code unit per byte). */
  ascii(text: string): this {
    const n = text.length;
    if (this.at + n > PIECE) return this.utf8(text);
    const piece = this.piece;
    let at = this.at;
    for (let i = 0; i < n; i++) piece[at++] = text.charCodeAt(i);
    this.at = at;
    return this;
  }

  /** A non-negative integer's decimal digits. */
  int(value: number): this {
    if (this.at + 16 > PIECE) this.next();
    const piece = this.piece;
    if (value === 0) {
      piece[this.at++] = 48;
      return this;
    }
    let digits = 0;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) digits++;
    let at = this.at + digits;
    this.at = at;
    for (let v = value; v >= 1; v = Math.floor(v / 10)) piece[--at] = 48 + (v % 10);
    return this;
  }

  /** Any text, UTF-8 encoded. */
  utf8(text: string): this {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    if (this.at + text.length * 3 > PIECE) {
      this.next();
      if (text.length * 3 > PIECE) {
        this.pieces.push(Buffer.from(text, 'utf8'));
        return this;
      }
    }
    this.at += this.piece.write(text, this.at, 'utf8');
    return this;
  }

  /** The list between `open` and `close`, as pieces to concatenate; the writer is empty after. */
  parts(open: string, close: string): Buffer[] {
    this.next();
    const parts = [Buffer.from(open), ...this.pieces, Buffer.from(close)];
    this.pieces = [];
    this.count = 0;
    return parts;
  }

  private next(): void {
    if (this.at > 0) this.pieces.push(this.piece.subarray(0, this.at));
    this.piece = Buffer.allocUnsafe(PIECE);
    this.at = 0;
  }
}
