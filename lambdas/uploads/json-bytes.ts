import { PIECE_BYTES } from './create-buffers';

// A JSON list written straight into bytes, item by item, as create plans a file's rows into the
// layout (work-file.ts): offsets, line ends, widths and row numbers are ASCII the planner knows
// needs no escaping, so they are written with no string made for them. Kept in fixed-size pieces,
// never one buffer that doubles: the whole layout of a 100 MB file is held at create, so a
// doubling's spare half would count.

const PIECE = PIECE_BYTES;
const newPiece = (): Buffer => Buffer.allocUnsafe(PIECE);

export class JsonBytes {
  private pieces: Buffer[] = [];
  private piece: Buffer;
  private at = 0;
  private count = 0;

  /** The separator's one ASCII byte, or -1 for none. */
  private readonly separator: number;

  /**
   * `separator`: between items (a JSON list's comma; '' for a string written a character per item).
   * `takePiece`: where each piece of PIECE_BYTES comes from (create's come from create-buffers.ts).
   */
  constructor(
    separator: ',' | '' = ',',
    private readonly takePiece: () => Buffer = newPiece,
  ) {
    this.separator = separator ? separator.charCodeAt(0) : -1;
    this.piece = takePiece();
  }

  /** Starts an item: the separator unless it is the first. */
  item(): this {
    if (this.count++ > 0 && this.separator >= 0) {
      if (this.at === PIECE) this.next();
      this.piece[this.at++] = this.separator;
    }
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
    // Offsets and row numbers (every row writes two) are small integers: counted by comparison and
    // written with integer division; anything larger takes the general loop.
    if (value <= 0x7fffffff) {
      let v = value | 0;
      let at = this.at + digitsOf(v);
      this.at = at;
      do {
        piece[--at] = 48 + (v % 10);
        v = (v / 10) | 0;
      } while (v > 0);
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
    this.piece = this.takePiece();
    this.at = 0;
  }
}

/** The decimal digits of a positive 31-bit integer. */
function digitsOf(v: number): number {
  if (v < 100_000) return v < 100 ? (v < 10 ? 1 : 2) : v < 1_000 ? 3 : v < 10_000 ? 4 : 5;
  return v < 10_000_000 ? (v < 1_000_000 ? 6 : 7) : v < 100_000_000 ? 8 : v < 1_000_000_000 ? 9 : 10;
}
