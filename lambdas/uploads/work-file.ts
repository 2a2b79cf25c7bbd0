import { startsLikeFormula, type CsvRecord, type ParsedCsv } from './csv';
import type { WorkRow } from './plan';

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
  if (record.fields.some(startsLikeFormula)) span.formulaFields = record.fields;
  return span;
}

export function layoutOf(parsed: ParsedCsv): CsvLayout {
  const [header, ...rows] = parsed.records;
  return { bom: parsed.bom, header: header ? spanOf(header) : { start: 0, end: 0, eol: '', width: 0 }, rows: rows.map(spanOf) };
}

// Stored column-wise (one array per attribute), which keeps 250,000 rows to a few MB of JSON and
// parses fast: version 1.
interface Stored {
  v: 1;
  bom: boolean;
  header: RecordSpan;
  width: number;
  start: number[];
  end: number[];
  /** One character per row: c = CRLF, n = LF, r = CR, - = none (the last record). */
  eol: string;
  numbers: (string | null)[];
  names: (WorkRow['name'] | 0)[] | null;
  widths: Record<number, number>;
  formulas: Record<number, string[]>;
  firstCells?: string[];
}

const EOL_CODE: Record<string, string> = { '\r\n': 'c', '\n': 'n', '\r': 'r', '': '-' };
const EOL_OF: Record<string, string> = { c: '\r\n', n: '\n', r: '\r', '-': '' };

export function serializeWork(work: UploadWork, phoneColumns: number): string {
  const { layout, rows } = work;
  const n = rows.length;
  const start = new Array<number>(n);
  const end = new Array<number>(n);
  let eol = '';
  const numbers: (string | null)[] = new Array(n * phoneColumns);
  const identity = rows.some((r) => r.name);
  const names: (WorkRow['name'] | 0)[] | null = identity ? new Array(n) : null;
  const widths: Record<number, number> = {};
  const formulas: Record<number, string[]> = {};
  const width = layout.header.width;
  for (let i = 0; i < n; i++) {
    const span = layout.rows[i]!;
    start[i] = span.start;
    end[i] = span.end;
    eol += EOL_CODE[span.eol];
    if (span.width !== width) widths[i] = span.width;
    if (span.formulaFields) formulas[i] = span.formulaFields;
    const row = rows[i]!;
    for (let c = 0; c < phoneColumns; c++) {
      const value = row.numbers[c];
      numbers[i * phoneColumns + c] = value === undefined ? '' : value;
    }
    if (names) names[i] = row.name ?? 0;
  }
  const stored: Stored = { v: 1, bom: layout.bom, header: layout.header, width, start, end, eol, numbers, names, widths, formulas, firstCells: work.firstCells };
  return JSON.stringify(stored);
}

export function parseWork(text: string, phoneColumns: number): UploadWork {
  const s = JSON.parse(text) as Stored;
  if (s.v !== 1) throw new Error(`work file version ${String(s.v)} is not known`);
  const n = s.start.length;
  const rows: WorkRow[] = new Array(n);
  const spans: RecordSpan[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const numbers = s.numbers.slice(i * phoneColumns, (i + 1) * phoneColumns);
    const name = s.names?.[i];
    rows[i] = name ? { numbers, name } : { numbers };
    const span: RecordSpan = { start: s.start[i]!, end: s.end[i]!, eol: EOL_OF[s.eol[i]!]!, width: s.widths[i] ?? s.width };
    const formula = s.formulas[i];
    if (formula) span.formulaFields = formula;
    spans[i] = span;
  }
  return { rows, layout: { bom: s.bom, header: s.header, rows: spans }, firstCells: s.firstCells };
}

const decoder = new TextDecoder('utf-8');

/**
 * The original's text as create parsed it (the decoder drops a leading BOM; `layout.bom` says to
 * write it back), so the stored offsets point into it.
 */
export const originalText = (bytes: Buffer): string => decoder.decode(bytes);

export const hasUtf8Bom = (bytes: Buffer): boolean => bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
