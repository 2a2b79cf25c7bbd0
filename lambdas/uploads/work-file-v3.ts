import { endianness } from 'node:os';
import { PIECE_BYTES } from './create-buffers';
import { EMPTY_CELL, INVALID_CELL, e164OfCell, type WorkRow } from './plan';

// The work file, version 3: what create writes of each row in bytes rather than JSON text. Its
// first line is a JSON header, then three sections:
//   numbers     rows × columns little-endian float64s, row-major: a national number (its E.164 is
//               '+1' and its digits, normalize-core.ts), 0 for an empty cell, -1 for an invalid one;
//   names       per row a kind byte (0 none, 1 full name, 2 first and last), each text after it as
//               a little-endian uint32 byte length and its UTF-8; absent when no row has a name;
//   firstCells  per row its first cell, as a length and UTF-8; absent unless asked for (pools).
// Version 2 wrote the same values as JSON arrays, each number's digits and each name escaped:
// the bench's 250,000 rows' create wrote 40 MB with it and 34.8 with this, in about 0.95 of the
// CPU time (docs/performance.md, "Create's CPU, ninth step").

export interface WorkHeaderV3 {
  v: 3;
  rows: number;
  columns: number;
  /** Byte length of the names section, or null: no row has a name. */
  names: number | null;
  /** Byte length of the first cells' section, or null: not written. */
  firstCells: number | null;
}

const NONE = 0;
const FULL = 1;
const FIRST_LAST = 2;
const LITTLE_ENDIAN = endianness() === 'LE';
const newPiece = (): Buffer => Buffer.allocUnsafe(PIECE_BYTES);

/** Bytes written in fixed-size pieces (create's come from create-buffers.ts), never one buffer that doubles. */
class PieceBytes {
  private pieces: Buffer[] = [];
  private piece: Buffer;
  private at = 0;
  bytes = 0;

  constructor(private readonly takePiece: () => Buffer) {
    this.piece = takePiece();
  }

  byte(value: number): void {
    if (this.at === this.piece.length) this.next();
    this.piece[this.at++] = value;
    this.bytes++;
  }

  float64(value: number): void {
    if (this.at + 8 > this.piece.length) this.next();
    this.piece.writeDoubleLE(value, this.at);
    this.at += 8;
    this.bytes += 8;
  }

  /** `text` as its UTF-8 byte length (uint32) and bytes; a lone surrogate as U+FFFD, as Buffer.from writes it. */
  text(text: string): void {
    const n = text.length;
    // At most 3 bytes per UTF-16 unit, and the length.
    if (this.at + n * 3 + 4 > this.piece.length) {
      this.next();
      if (n * 3 + 4 > this.piece.length) {
        const bytes = Buffer.from(text, 'utf8');
        this.uint32(bytes.length);
        this.flush();
        this.pieces.push(bytes);
        this.bytes += bytes.length;
        return;
      }
    }
    // ASCII (nearly every name) byte by byte: a call into Node's encoder per name cost about twice
    // as much for texts this short (docs/performance.md, "Create's CPU, tenth step"). Anything else
    // is Node's encoder's from the start, one copy of UTF-8's rules (lone surrogates included).
    const piece = this.piece;
    const start = this.at + 4;
    let written = 0;
    while (written < n) {
      const unit = text.charCodeAt(written);
      if (unit > 0x7f) break;
      piece[start + written++] = unit;
    }
    if (written < n) written = piece.write(text, start, 'utf8');
    piece.writeUInt32LE(written, this.at);
    this.at += 4 + written;
    this.bytes += 4 + written;
  }

  /** The bytes written, as pieces to concatenate; the writer is empty after. */
  parts(): Buffer[] {
    this.flush();
    const parts = this.pieces;
    this.pieces = [];
    return parts;
  }

  private uint32(value: number): void {
    if (this.at + 4 > this.piece.length) this.next();
    this.piece.writeUInt32LE(value, this.at);
    this.at += 4;
    this.bytes += 4;
  }

  private flush(): void {
    if (this.at > 0) this.pieces.push(this.piece.subarray(0, this.at));
    this.piece = this.piece.subarray(this.at);
    this.at = 0;
  }

  private next(): void {
    this.flush();
    this.piece = this.takePiece();
  }
}

/** Float64s into pieces viewed as Float64Arrays (a typed array's store, not a call into Buffer per value). */
class Float64Pieces {
  private readonly bytes: PieceBytes | null;
  private views: { piece: Buffer; values: Float64Array<ArrayBufferLike> }[] = [];
  private values: Float64Array<ArrayBufferLike> = new Float64Array(0);
  private at = 0;

  constructor(private readonly takePiece: () => Buffer) {
    this.bytes = LITTLE_ENDIAN ? null : new PieceBytes(takePiece);
  }

  push(value: number): void {
    if (this.bytes) return this.bytes.float64(value);
    if (this.at === this.values.length) this.next();
    this.values[this.at++] = value;
  }

  parts(): Buffer[] {
    if (this.bytes) return this.bytes.parts();
    const parts = this.views.map(({ piece, values }) => piece.subarray(0, values === this.values ? this.at * 8 : values.length * 8));
    this.views = [];
    this.values = new Float64Array(0);
    this.at = 0;
    return parts;
  }

  private next(): void {
    let piece = this.takePiece();
    // A view needs an 8-byte aligned offset; create's pieces start their own ArrayBuffers.
    if (piece.byteOffset % 8 !== 0) piece = Buffer.from(new ArrayBuffer(piece.length));
    this.values = new Float64Array(piece.buffer, piece.byteOffset, Math.floor(piece.length / 8));
    this.views.push({ piece, values: this.values });
    this.at = 0;
  }
}

/** Create's writing of the work file, row by row: each row's numbers, then its name, then its first cell. */
export class WorkFileWriter {
  private readonly numbers: Float64Pieces;
  private readonly names: PieceBytes;
  private readonly firstCells: PieceBytes | null;
  private rows = 0;
  private anyName = false;

  constructor(
    private readonly columns: number,
    options: { firstCells?: boolean } = {},
    takePiece: () => Buffer = newPiece,
  ) {
    this.numbers = new Float64Pieces(takePiece);
    this.names = new PieceBytes(takePiece);
    this.firstCells = options.firstCells ? new PieceBytes(takePiece) : null;
  }

  /** A cell as plan.ts's RowCells holds it: a national number, EMPTY_CELL or INVALID_CELL. */
  number(national: number): void {
    this.numbers.push(national);
  }

  /** Ends the row with its name ('' for none; `last` with `first`). */
  name(full: string, first: string, last: string): void {
    this.rows++;
    if (full) {
      this.anyName = true;
      this.names.byte(FULL);
      this.names.text(full);
    } else if (first) {
      this.anyName = true;
      this.names.byte(FIRST_LAST);
      this.names.text(first);
      this.names.text(last);
    } else this.names.byte(NONE);
  }

  firstCell(text: string): void {
    this.firstCells?.text(text);
  }

  /** The whole file, as pieces to concatenate. */
  parts(): Buffer[] {
    const names = this.names.parts();
    const firstCells = this.firstCells?.parts() ?? [];
    const header: WorkHeaderV3 = {
      v: 3,
      rows: this.rows,
      columns: this.columns,
      names: this.anyName ? this.names.bytes : null,
      firstCells: this.firstCells ? this.firstCells.bytes : null,
    };
    return [Buffer.from(`${JSON.stringify(header)}\n`), ...this.numbers.parts(), ...(this.anyName ? names : []), ...firstCells];
  }
}

/** A row's numbers as plan.ts's RowCells holds them, from its E.164s ('' empty, null invalid). */
export function nationalOf(e164: string | null): number {
  if (e164 === null) return INVALID_CELL;
  if (e164 === '') return EMPTY_CELL;
  if (!/^\+1[1-9]\d{0,14}$/.test(e164)) throw new Error(`${e164} is not '+1' and a national number`);
  return Number(e164.slice(2));
}

/** The version 3 work file of rows already planned (the console's draft; tests). */
export function workFileOfRows(rows: readonly WorkRow[], columns: number, firstCells?: readonly string[]): Buffer {
  const writer = new WorkFileWriter(columns, { firstCells: Boolean(firstCells) });
  rows.forEach((row, i) => {
    for (let c = 0; c < columns; c++) {
      const e164 = row.numbers[c];
      writer.number(nationalOf(e164 === undefined ? '' : e164));
    }
    writer.name(row.name?.full ?? '', row.name?.first ?? '', row.name?.last ?? '');
    writer.firstCell(firstCells?.[i] ?? '');
  });
  return Buffer.concat(writer.parts());
}

/** What a reader gives back: StoredRows's form (work-file.ts), and the first cells when asked for. */
export interface WorkV3Values {
  numbers: (string | null)[];
  names: (WorkRow['name'] | 0)[] | null;
  firstCells?: string[];
}

const truncated = (): Error => new Error('the work file (version 3) ends before its sections do');
const longer = (): Error => new Error('the work file (version 3) is longer than its header says');

/**
 * The sections after the header, from their bytes as they come (`push`, then `end`): values are
 * decoded as soon as they are whole, and only a value cut by a piece's end is held over.
 */
export class WorkV3Reader {
  private readonly numbers: (string | null)[] = [];
  private readonly names: (WorkRow['name'] | 0)[] | null;
  private readonly firstCells: string[] | null;
  /** Bytes not decoded yet, and how many are needed before decoding can go on. */
  private held: Buffer[] = [];
  private heldBytes = 0;
  private need = 1;
  /** Where decoding is; `skip`: the first cells' bytes, when they are not asked for. */
  private section: 'numbers' | 'names' | 'firstCells' | 'skip' | 'done' = 'numbers';
  private left: number;
  /** The text textAt read last. */
  private text = '';

  constructor(
    private readonly header: WorkHeaderV3,
    options: { firstCells?: boolean } = {},
  ) {
    if (header.v !== 3 || !Number.isInteger(header.rows) || !Number.isInteger(header.columns) || header.rows < 0 || header.columns < 0) {
      throw new Error(`work file header ${JSON.stringify(header)} is not version 3's`);
    }
    this.names = header.names === null ? null : [];
    this.firstCells = options.firstCells && header.firstCells !== null ? [] : null;
    this.left = header.rows * header.columns;
    this.need = 8;
    this.advance();
  }

  push(bytes: Buffer): void {
    if (!bytes.length) return;
    this.held.push(bytes);
    this.heldBytes += bytes.length;
    if (this.section === 'done') throw longer();
    if (this.heldBytes < this.need) return;
    const all = this.held.length === 1 ? this.held[0]! : Buffer.concat(this.held, this.heldBytes);
    const used = this.decode(all);
    const rest = all.subarray(used);
    // A copy, so the piece the rest was cut from is not kept alive by it.
    this.held = rest.length ? [Buffer.from(rest)] : [];
    this.heldBytes = rest.length;
  }

  end(): WorkV3Values {
    if (this.section !== 'done') throw truncated();
    if (this.heldBytes) throw longer();
    const values: WorkV3Values = { numbers: this.numbers, names: this.names };
    if (this.firstCells) values.firstCells = this.firstCells;
    return values;
  }

  /** Moves past sections with nothing (more) to read. */
  private advance(): void {
    for (;;) {
      if (this.section === 'numbers' && this.left === 0) {
        this.section = 'names';
        this.left = this.names ? this.header.rows : 0;
        this.need = 1;
      } else if (this.section === 'names' && this.left === 0) {
        this.section = this.firstCells ? 'firstCells' : 'skip';
        this.left = this.firstCells ? this.header.rows : (this.header.firstCells ?? 0);
        this.need = this.firstCells ? 4 : 1;
      } else if ((this.section === 'firstCells' || this.section === 'skip') && this.left === 0) {
        this.section = 'done';
        this.need = Infinity;
      } else return;
    }
  }

  /** Decodes what `bytes` holds whole; answers how many bytes that used. */
  private decode(bytes: Buffer): number {
    let at = 0;
    while (this.section !== 'done') {
      if (this.section === 'numbers') {
        const count = Math.min(this.left, Math.floor((bytes.length - at) / 8));
        for (let k = 0; k < count; k++, at += 8) {
          this.numbers.push(e164OfCell(bytes.readDoubleLE(at)));
        }
        this.left -= count;
        this.need = 8;
        if (this.left > 0) return at;
      } else if (this.section === 'skip') {
        const count = Math.min(this.left, bytes.length - at);
        at += count;
        this.left -= count;
        if (this.left > 0) return at;
      } else {
        const next = this.section === 'names' ? this.nameAt(bytes, at) : this.textAt(bytes, at, at);
        if (next < 0) return at;
        if (this.section === 'firstCells') this.firstCells?.push(this.text);
        at = next;
        this.left--;
      }
      this.advance();
    }
    return at;
  }

  /** One row's name from `at`, or -1 (with `need` set) when `bytes` does not hold it whole. */
  private nameAt(bytes: Buffer, at: number): number {
    if (at + 1 > bytes.length) return this.wanting(1);
    const kind = bytes[at]!;
    if (kind === NONE) {
      this.names!.push(0);
      return at + 1;
    }
    if (kind !== FULL && kind !== FIRST_LAST) throw new Error(`the work file has a name of kind ${kind}`);
    const first = this.textAt(bytes, at + 1, at);
    if (first < 0) return -1;
    if (kind === FULL) {
      this.names!.push({ full: this.text });
      return first;
    }
    const full = this.text;
    const last = this.textAt(bytes, first, at);
    if (last < 0) return -1;
    this.names!.push({ first: full, last: this.text });
    return last;
  }

  /**
   * A length and UTF-8 text from `at` into `text`, answering where it ends; or -1 when `bytes` does
   * not hold it whole, `need` then counting the bytes wanted from `origin` (where the held rest will begin).
   */
  private textAt(bytes: Buffer, at: number, origin: number): number {
    if (at + 4 > bytes.length) return this.wanting(at - origin + 4);
    const length = bytes.readUInt32LE(at);
    if (at + 4 + length > bytes.length) return this.wanting(at - origin + 4 + length);
    this.text = bytes.toString('utf8', at + 4, at + 4 + length);
    return at + 4 + length;
  }

  private wanting(bytesFromOrigin: number): number {
    this.need = bytesFromOrigin;
    return -1;
  }
}
