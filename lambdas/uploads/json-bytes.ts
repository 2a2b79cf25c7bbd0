import { PIECE_BYTES } from './create-buffers';

// A JSON list written straight into UTF-8 bytes, item by item, as create plans a file's rows. The
// rows' numbers, offsets and line ends are ASCII the planner knows needs no escaping, so they are
// written as bytes with no string made for them; only text from the file (names, formula-like
// rows) goes through a UTF-8 encode. Kept in fixed-size pieces, never one buffer that doubles: the
// whole layout of a 100 MB file is held at create, so a doubling's spare half would count.

const PIECE = PIECE_BYTES;
const newPiece = (): Buffer => Buffer.allocUnsafe(PIECE);

const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
/** JSON.stringify's two-character escapes below U+0020: \b \t \n \f \r. */
const SHORT_ESCAPE: Record<number, number> = { 8: 98, 9: 116, 10: 110, 12: 102, 13: 114 };

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

  /** The JSON string of the E.164 '+1' and a national number's digits (plan.ts's RowCells): no string made for it. */
  e164(national: number): this {
    if (!(national >= 1_000_000_000 && national <= 9_999_999_999)) return this.ascii('"+1').int(national).ascii('"');
    if (this.at + 14 > PIECE) this.next();
    const piece = this.piece;
    const at = this.at;
    piece[at] = 34;
    piece[at + 1] = 43;
    piece[at + 2] = 49;
    // Two five-digit halves: the whole exceeds 2^31, where integer arithmetic would not hold; each
    // half does, and as a 32-bit integer its remainders are integer ones (a double's take fmod).
    let hi = Math.floor(national / 100_000) | 0;
    let lo = (national - hi * 100_000) | 0;
    for (let k = 12; k > 8; k--) {
      piece[at + k] = 48 + (lo % 10);
      lo = (lo / 10) | 0;
    }
    piece[at + 8] = 48 + lo;
    for (let k = 7; k > 3; k--) {
      piece[at + k] = 48 + (hi % 10);
      hi = (hi / 10) | 0;
    }
    piece[at + 3] = 48 + hi;
    piece[at + 13] = 34;
    this.at = at + 14;
    return this;
  }

  /**
   * `text` as a JSON string literal, UTF-8 encoded: byte for byte JSON.stringify(text)'s, without
   * the string it makes or a call into Buffer per item (names and formula-like rows are most of
   * what create writes that is not ASCII it knows).
   */
  string(text: string): this {
    const n = text.length;
    // At most 6 bytes per UTF-16 unit (a \u00XX escape), and the quotes.
    if (this.at + n * 6 + 2 > PIECE) {
      this.next();
      if (n * 6 + 2 > PIECE) return this.utf8(JSON.stringify(text));
    }
    const piece = this.piece;
    let at = this.at;
    piece[at++] = 34;
    for (let i = 0; i < n; i++) {
      const c = text.charCodeAt(i);
      if (c >= 0x20 && c < 0x80) {
        if (c === 34 || c === 92) piece[at++] = 92;
        piece[at++] = c;
      } else if (c < 0x20) {
        piece[at++] = 92;
        const short = SHORT_ESCAPE[c];
        if (short) piece[at++] = short;
        else {
          piece[at++] = 117; // u00XX, lowercase hex as JSON.stringify writes it
          piece[at++] = 48;
          piece[at++] = 48;
          piece[at++] = HEX[c >> 4]!;
          piece[at++] = HEX[c & 15]!;
        }
      } else if (c < 0x800) {
        piece[at++] = 0xc0 | (c >> 6);
        piece[at++] = 0x80 | (c & 63);
      } else if (c >= 0xd800 && c <= 0xdfff) {
        const low = c <= 0xdbff ? text.charCodeAt(i + 1) : NaN;
        if (low >= 0xdc00 && low <= 0xdfff) {
          const cp = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          piece[at++] = 0xf0 | (cp >> 18);
          piece[at++] = 0x80 | ((cp >> 12) & 63);
          piece[at++] = 0x80 | ((cp >> 6) & 63);
          piece[at++] = 0x80 | (cp & 63);
          i++;
        } else {
          // A lone surrogate: JSON.stringify escapes it (well-formed JSON.stringify).
          piece[at++] = 92;
          piece[at++] = 117;
          piece[at++] = HEX[c >> 12]!;
          piece[at++] = HEX[(c >> 8) & 15]!;
          piece[at++] = HEX[(c >> 4) & 15]!;
          piece[at++] = HEX[c & 15]!;
        }
      } else {
        piece[at++] = 0xe0 | (c >> 12);
        piece[at++] = 0x80 | ((c >> 6) & 63);
        piece[at++] = 0x80 | (c & 63);
      }
    }
    piece[at++] = 34;
    this.at = at;
    return this;
  }

  /** A list of texts as a JSON array of strings: JSON.stringify(list)'s bytes. */
  strings(list: readonly string[]): this {
    this.ascii('[');
    for (let i = 0; i < list.length; i++) {
      if (i > 0) this.ascii(',');
      this.string(list[i]!);
    }
    return this.ascii(']');
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
