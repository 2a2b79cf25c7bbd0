import { isAscii } from 'node:buffer';
import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { CsvRecordReader, CsvSyntaxError, type CsvRecord } from './csv';
import { loadSlowRead } from '../classification/normalize-on-demand';
import { MAX_NUMBERS, newRowCells, rowPlanner, type ColumnMapping, type PlanCounts, type RowCells, type RowPlanner } from './plan';
import { JsonBytes } from './json-bytes';
import { spanOf, type RecordSpan } from './work-file';
import { WorkFileWriter } from './work-file-v3';
import { CreateBuffers } from './create-buffers';

// Create's one reading of a CSV, as its bytes arrive: decoded, split into records, each planned
// under the upload rules and written straight into the work file's bytes (work-file-v3.ts) and the
// layout's JSON text (work-file.ts; the same formats serializeWork writes), so that what is held
// at any moment is those two and the record under way: never the file, its text, its records or
// its rows.

/** What create stores of a CSV besides its bytes (work-file.ts), and the plan's counts. */
export interface PlannedCsv extends PlanCounts {
  /** The work file and the layout object, serialized (UTF-8 bytes when read as a stream, without a string copy). */
  work: string | Buffer;
  layout: string | Buffer;
  /**
   * Gives the Buffers `work` and `layout` are written in back to create's pool (create-buffers.ts),
   * once both are stored: neither may be read after. Absent when they are not the pool's.
   */
  release?(): void;
}

const copyOf = (record: CsvRecord): CsvRecord => ({ ...record, fields: [...record.fields] });
const EOL_CODE: Record<string, string> = { '\r\n': 'c', '\n': 'n', '\r': 'r', '': '-' };
const utf8Error = () => new InvalidInput('The file is not valid UTF-8 text; save the CSV as UTF-8 and upload it again');

/**
 * `push` each piece of the file's bytes and await `settle`, then `finish`: the same refusals, in
 * the same order, as reading the whole file at once (UTF-8, then CSV syntax, then too many rows,
 * then the mapping and the rows, then the count of numbers), and the same plan.
 *
 * A row holding a cell only libphonenumber-js can read (left pending by rowPlanner's fill) waits, with the
 * records after it in the same piece, until `settle` has loaded the library; nothing else of the
 * file is held meanwhile.
 */
export class CsvPlanner {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  /** Bytes given to the decoder, and whether it may hold the first bytes of a character. */
  private decoded = 0;
  private decoderMayHold = false;
  private readonly reader = new CsvRecordReader((record) => this.record(record));
  private firstBytes: number[] = [];
  private header: RecordSpan | null = null;
  private planner: RowPlanner | null = null;
  /** Every row is planned into this one object (the pending row's first cells wait in it). */
  private readonly cells: RowCells = newRowCells();
  /** The pending row and the records read after it, in order, until settle(). */
  private waiting: { i: number; record: CsvRecord }[] | null = null;
  /** A refusal met before the whole file was read: given once the file is known to be within its row limit. */
  private refusal: unknown = null;
  private rows = 0;
  private readonly buffers = new CreateBuffers();
  private readonly piece = () => this.buffers.piece();
  private work: WorkFileWriter | null = null;
  private readonly start = new JsonBytes(',', this.piece);
  private readonly end = new JsonBytes(',', this.piece);
  private readonly eol = new JsonBytes('', this.piece);
  private readonly widths = new JsonBytes(',', this.piece);
  private readonly formulas = new JsonBytes(',', this.piece);
  bytes = 0;

  constructor(
    private readonly mapping: ColumnMapping,
    private readonly options: { minimum?: number; firstCells?: boolean } = {},
  ) {}

  push(bytes: Uint8Array): void {
    if (this.firstBytes.length < 3) this.firstBytes.push(...bytes.subarray(0, 3 - this.firstBytes.length));
    this.bytes += bytes.length;
    this.reader.push(this.decode(bytes, true));
  }

  /** Plans the rows the last push left waiting for libphonenumber-js, once it is loaded (at once when none wait). */
  async settle(): Promise<void> {
    if (!this.waiting) return;
    const slow = await loadSlowRead();
    const [first, ...rest] = this.waiting;
    this.waiting = null;
    this.planner!.resume(slow, this.cells);
    this.keep(first!.i, first!.record, this.cells);
    for (const { i, record } of rest) {
      if (this.refusal) return;
      this.plan(i, record);
    }
  }

  async finish(): Promise<PlannedCsv> {
    this.reader.push(this.decode(new Uint8Array(0), false));
    try {
      this.reader.end();
    } catch (error) {
      if (error instanceof CsvSyntaxError) throw new InvalidInput(`The file is not valid CSV: ${error.message}`);
      throw error;
    }
    await this.settle();
    if (!this.header) throw new InvalidInput('The file is empty; it needs a header row and at least 100 numbers');
    if (this.rows > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} rows per upload; got ${this.rows}`);
    if (this.refusal) throw this.refusal;
    const counts = this.planner!.finish();
    // The decoder drops a leading BOM; a second one is the text's (the reader's).
    const bom = this.reader.bom || (this.firstBytes[0] === 0xef && this.firstBytes[1] === 0xbb && this.firstBytes[2] === 0xbf);
    const width = this.header.width;
    const planned: PlannedCsv = {
      ...counts,
      work: this.buffers.join(this.work!.parts()),
      layout: this.buffers.join([
        Buffer.from(`{"bom":${bom},"header":${JSON.stringify(this.header)},"width":${width},"start":`),
        ...this.start.parts('[', ']'),
        Buffer.from(',"end":'),
        ...this.end.parts('[', ']'),
        // The line ends are one code letter each (work-file.ts), never a character JSON escapes.
        Buffer.from(',"eol":'),
        ...this.eol.parts('"', '"'),
        Buffer.from(',"widths":'),
        ...this.widths.parts('{', '}'),
        Buffer.from(',"formulas":'),
        ...this.formulas.parts('{', '}'),
        Buffer.from('}'),
      ]),
      release: () => this.buffers.release(),
    };
    this.buffers.releasePieces();
    return planned;
  }

  private decode(bytes: Uint8Array, stream: boolean): string {
    // ASCII is its own UTF-8, and copying it as Latin-1 is many times faster than decoding it: a
    // piece is, once the decoder is past the file's first bytes (where it drops a BOM, and only
    // there) and holds no part of a character.
    if (this.decoded >= 3 && !this.decoderMayHold && isAscii(bytes)) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
    this.decoded += bytes.length;
    if (bytes.length) this.decoderMayHold = bytes[bytes.length - 1]! >= 0x80;
    try {
      return this.decoder.decode(bytes, { stream });
    } catch {
      throw utf8Error();
    }
  }

  private record(record: CsvRecord): void {
    if (!this.header) {
      // The reader fills the same record again for the next one (csv.ts): what is kept is copied.
      const header = copyOf(record);
      this.header = spanOf(header);
      try {
        this.planner = rowPlanner(header.fields, this.mapping, { minimum: this.options.minimum });
        this.work = new WorkFileWriter(this.mapping.phoneColumns.length, { firstCells: this.options.firstCells }, this.piece);
        // Only the fields planned or kept are made strings; the rest of each record is delimited.
        this.reader.readOnly(this.options.firstCells ? [...this.planner.columns, 0] : this.planner.columns);
      } catch (error) {
        this.refusal = error;
      }
      return;
    }
    const i = this.rows++;
    // Past the limit or refused: only counted, for the refusal's message.
    if (this.refusal || this.rows > MAX_NUMBERS) return;
    if (this.waiting) this.waiting.push({ i, record: copyOf(record) });
    else this.plan(i, record);
  }

  private plan(i: number, record: CsvRecord): void {
    let planned: boolean;
    try {
      planned = this.planner!.fill(record.fields, this.cells);
    } catch (error) {
      this.refusal = error;
      return;
    }
    if (planned) this.keep(i, record, this.cells);
    else this.waiting = [{ i, record: copyOf(record) }];
  }

  // Each row is written as bytes: the work file's values as they are (work-file-v3.ts), the
  // layout's JSON by json-bytes.ts (a string per value, joined and encoded in batches, with
  // JSON.stringify of each formula-like row, was most of planning a file). csv-planner.test.ts
  // compares the values readers get back with the whole-file path's.
  private keep(i: number, record: CsvRecord, cells: RowCells): void {
    const work = this.work!;
    const nationals = cells.nationals;
    for (let c = 0; c < nationals.length; c++) work.number(nationals[c]!);
    work.name(cells.full, cells.first, cells.last);
    work.firstCell(record.fields[0] ?? '');
    this.start.item().int(record.start);
    this.end.item().int(record.end);
    this.eol.item().ascii(EOL_CODE[record.eol]!);
    const fields = record.fields;
    if (fields.length !== this.header!.width) this.widths.item().ascii('"').int(i).ascii('":').int(fields.length);
    // Which rows hold a formula-like field, not their fields: finalize reads those from the original.
    if (record.formula) this.formulas.item().ascii('"').int(i).ascii('":1');
  }
}

/**
 * The text of a piece is a string of its own: at 64 KiB it is a young object that dies young, where
 * a 1 MiB one is allocated among the old (V8's large objects), and 22 of them per bench file brought
 * on full collections of the whole heap: the planner alone, in a process holding a heap of 60 MB,
 * took 0.75 of its CPU time with 64 KiB pieces (medians of 12 paired rounds; 16 KiB to 128 KiB alike).
 */
const PIECE = 64 * 1024;

/** A file held in memory (a multipart part, the console's draft), planned in pieces as a stream would be. */
export async function planCsvBytes(bytes: Uint8Array, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean } = {}): Promise<PlannedCsv> {
  const planner = new CsvPlanner(mapping, options);
  for (let at = 0; at < bytes.length; at += PIECE) {
    planner.push(bytes.subarray(at, at + PIECE));
    await planner.settle();
  }
  return planner.finish();
}

/** A file read as a stream (a staged object's body). */
export async function planCsvStream(body: AsyncIterable<Uint8Array>, mapping: ColumnMapping, options: { minimum?: number; firstCells?: boolean } = {}): Promise<PlannedCsv> {
  const planner = new CsvPlanner(mapping, options);
  for await (const piece of body) {
    planner.push(piece);
    await planner.settle();
  }
  return planner.finish();
}
