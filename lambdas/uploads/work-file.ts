import type { CsvRecord, ParsedCsv } from './csv';
import type { WorkRow } from './plan';
import { WorkV3Reader, workFileOfRows, type WorkHeaderV3 } from './work-file-v3';

// What the pipeline and the downloads need of an upload, computed once when it is created (the
// only time the original is parsed and its numbers normalized) and stored next to the original:
// each row's E.164 numbers and name, and where each record sits in the original's text so the
// processed file can copy it without parsing the file again.

/** Where a record sits in the original, and what writing its processed line needs. */
export interface RecordSpan {
  start: number;
  end: number;
  eol: string;
  /** Number of fields (shorter rows are padded). */
  width: number;
  /** Its fields, kept only when one could be read as a formula (neutralize_formulas rewrites those). */
  formulaFields?: string[];
}

export interface CsvLayout {
  bom: boolean;
  header: RecordSpan;
  rows: RecordSpan[];
}

export interface UploadWork {
  rows: WorkRow[];
  layout: CsvLayout;
  /** Each row's first cell (the contact id of a pool upload's rows). */
  firstCells?: string[];
}

export function spanOf(record: CsvRecord): RecordSpan {
  const span: RecordSpan = { start: record.start, end: record.end, eol: record.eol, width: record.fields.length };
  if (record.formula) span.formulaFields = record.fields;
  return span;
}

export function layoutOf(parsed: ParsedCsv): CsvLayout {
  const [header, ...rows] = parsed.records;
  return { bom: parsed.bom, header: header ? spanOf(header) : { start: 0, end: 0, eol: '', width: 0 }, rows: rows.map(spanOf) };
}

// Stored column-wise (one array per attribute), in parts a reader parses only if it needs them.
// The layout (what writing the processed file needs) is an object of its own, read by finalize
// and the downloads. The work file, read by prepare, is version 3 (work-file-v3.ts: a JSON header
// line, then the numbers, names and first cells in bytes). Version 2 (four lines of JSON: the
// version, the numbers, the names, the first cells) and version 1 (one JSON object holding all of
// it, layout included) are still read, for uploads created before.

/** Where each record sits in the original (character offsets into its text), column-wise. */
export interface StoredLayout {
  bom: boolean;
  header: RecordSpan;
  width: number;
  start: number[];
  end: number[];
  /** One character per row: c = CRLF, n = LF, r = CR, - = none (the last record). */
  eol: string;
  widths: Record<number, number>;
  /**
   * The rows with a field that reads as a formula, each marked 1: finalize and the downloads read
   * only which rows these are (layout-index.ts) and take their fields from the original. Layouts
   * stored before 2026-11-26 hold the fields themselves (read the same way).
   */
  formulas: Record<number, 1 | string[]>;
}

/** Each row's numbers (phoneColumns per row, row-major) and name (0 for none; null without identity). */
export interface StoredRows {
  numbers: (string | null)[];
  names: (WorkRow['name'] | 0)[] | null;
}

interface StoredV1 extends StoredLayout, StoredRows {
  v: 1;
  firstCells?: string[];
}

const EOL_CODE: Record<string, string> = { '\r\n': 'c', '\n': 'n', '\r': 'r', '': '-' };

export function storedLayoutOf(layout: CsvLayout): StoredLayout {
  const n = layout.rows.length;
  const start = new Array<number>(n);
  const end = new Array<number>(n);
  let eol = '';
  const widths: Record<number, number> = {};
  const formulas: Record<number, 1> = {};
  const width = layout.header.width;
  for (let i = 0; i < n; i++) {
    const span = layout.rows[i]!;
    start[i] = span.start;
    end[i] = span.end;
    eol += EOL_CODE[span.eol];
    if (span.width !== width) widths[i] = span.width;
    if (span.formulaFields) formulas[i] = 1;
  }
  return { bom: layout.bom, header: layout.header, width, start, end, eol, widths, formulas };
}

export function storedRowsOf(rows: WorkRow[], phoneColumns: number): StoredRows {
  const n = rows.length;
  const numbers: (string | null)[] = new Array(n * phoneColumns);
  const names: (WorkRow['name'] | 0)[] | null = rows.some((r) => r.name) ? new Array(n) : null;
  for (let i = 0; i < n; i++) {
    const row = rows[i]!;
    for (let c = 0; c < phoneColumns; c++) {
      const value = row.numbers[c];
      numbers[i * phoneColumns + c] = value === undefined ? '' : value;
    }
    if (names) names[i] = row.name ?? 0;
  }
  return { numbers, names };
}

/** The work file (version 3) and the layout object, as create stores them. */
export function serializeWork(work: UploadWork, phoneColumns: number): { work: Buffer; layout: string } {
  return { work: workFileOfRows(work.rows, phoneColumns, work.firstCells), layout: JSON.stringify(storedLayoutOf(work.layout)) };
}

/** Line `n` (0-based) of a version 2 work file. */
function line(bytes: Buffer, n: number): string {
  let from = 0;
  for (let i = 0; i < n; i++) from = bytes.indexOf(10, from) + 1;
  const nl = bytes.indexOf(10, from);
  return bytes.toString('utf8', from, nl === -1 ? bytes.length : nl);
}

/** A version 1 work file: one JSON object, the layout among the rows (later versions begin with a header line). */
export const isWorkV1 = (bytes: Buffer): boolean => bytes.indexOf(10) === -1;

function parseV1(bytes: Buffer): StoredV1 {
  const s = JSON.parse(bytes.toString('utf8')) as StoredV1;
  if (s.v !== 1) throw new Error(`work file version ${String(s.v)} is not known`);
  return s;
}

/** A version 2 or 3 work file's first line, parsed; another version is refused. */
export function workHeaderOf(firstLine: Buffer): { v: 2 } | WorkHeaderV3 {
  const header = JSON.parse(firstLine.toString('utf8')) as { v: unknown };
  if (header.v !== 2 && header.v !== 3) throw new Error(`work file version ${String(header.v)} is not known`);
  return header as { v: 2 } | WorkHeaderV3;
}

/** A version 3 file's sections, read from the whole file. */
function readV3(bytes: Buffer, header: WorkHeaderV3, options: { firstCells?: boolean }) {
  const reader = new WorkV3Reader(header, options);
  reader.push(bytes.subarray(bytes.indexOf(10) + 1));
  return reader.end();
}

export function readWorkRows(bytes: Buffer): StoredRows {
  if (isWorkV1(bytes)) {
    const { numbers, names } = parseV1(bytes);
    return { numbers, names };
  }
  const header = workHeaderOf(bytes.subarray(0, bytes.indexOf(10)));
  if (header.v === 3) {
    const { numbers, names } = readV3(bytes, header, {});
    return { numbers, names };
  }
  return { numbers: JSON.parse(line(bytes, 1)) as StoredRows['numbers'], names: JSON.parse(line(bytes, 2)) as StoredRows['names'] };
}

export function readFirstCells(bytes: Buffer): string[] | undefined {
  if (isWorkV1(bytes)) return parseV1(bytes).firstCells;
  const header = workHeaderOf(bytes.subarray(0, bytes.indexOf(10)));
  if (header.v === 3) return readV3(bytes, header, { firstCells: true }).firstCells;
  return (JSON.parse(line(bytes, 3)) as string[] | null) ?? undefined;
}

export const hasUtf8Bom = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
