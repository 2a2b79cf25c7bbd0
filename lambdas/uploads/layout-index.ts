import { eachMember, JsonInPlaceError, parseValue, readUint32s, skipSpace } from './json-in-place';
import type { RecordSpan, StoredLayout } from './work-file';

// The stored layout (work-file.ts `StoredLayout`) as finalize and the downloads read it: each row's
// offsets as typed arrays (8 bytes a row), its line ending kept as the stored string of code
// letters, and one byte a row saying whether a field of it reads as a formula. The writer takes
// the formula rows' fields from the record's own bytes in the original when it needs them
// (processed-file.ts); layouts stored before 2026-11-26 also hold those fields (at 100 MB, 23 of
// their 28 MB), and they are stepped over, never decoded. Parsing the whole object instead held
// about three times its size in objects, next to everything else finalize holds (docs/performance.md).

export interface LayoutIndex {
  bom: boolean;
  /** The header, its fields included when one reads as a formula (the header has no row of the original to read them from again). */
  header: RecordSpan;
  /** The header's number of fields: the width of every row not in `widths`. */
  width: number;
  /** Character offsets into the original's text of each row's content. */
  start: Uint32Array;
  end: Uint32Array;
  /** One character per row: c = CRLF, n = LF, r = CR, - = none (the last record). */
  eol: string;
  widths: Record<number, number>;
  /** 1 for a row with a field that reads as a formula (neutralize_formulas rewrites it), else 0. */
  formula: Uint8Array;
}

const EOL_OF: Record<string, string> = { c: '\r\n', n: '\n', r: '\r', '-': '' };

export const rowsOf = (index: LayoutIndex): number => index.start.length;

export const rowWidth = (index: LayoutIndex, i: number): number => index.widths[i] ?? index.width;

export function rowEol(index: LayoutIndex, i: number): string {
  const eol = EOL_OF[index.eol[i]!];
  if (eol === undefined) throw new Error(`layout: row ${i} has no known line ending`);
  return eol;
}

/**
 * The layout's bytes as create stores them (its own object), or a version 1 work file holding it
 * among the rows (uploads created before the layout had an object of its own): the members this
 * index needs, the others stepped over.
 */
export function readLayoutIndex(bytes: Buffer): LayoutIndex {
  const found: Partial<Record<'bom' | 'header' | 'width' | 'eol' | 'widths' | 'v', unknown>> = {};
  let start: Uint32Array | null = null;
  let end: Uint32Array | null = null;
  let formulaRows: number[] | null = null;
  try {
    const after = eachMember(bytes, 0, (name, from, to) => {
      if (name === 'start') start = readUint32s(bytes, from, to);
      else if (name === 'end') end = readUint32s(bytes, from, to);
      else if (name === 'formulas') formulaRows = memberNames(bytes, from);
      else if (name === 'bom' || name === 'header' || name === 'width' || name === 'eol' || name === 'widths' || name === 'v') found[name] = parseValue(bytes, from, to);
    });
    if (skipSpace(bytes, after) !== bytes.length) throw new JsonInPlaceError(`more after the object at byte ${after}`);
  } catch (error) {
    if (error instanceof JsonInPlaceError || error instanceof SyntaxError) throw new Error(`layout: not a layout object (${error.message})`);
    throw error;
  }
  if (found.v !== undefined && found.v !== 1) throw new Error(`work file version ${String(found.v)} is not known`);
  return check(found, start, end, formulaRows);
}

/** The index of a layout already parsed (an upload whose original is parsed again, tests). */
export function layoutIndexOf(layout: StoredLayout): LayoutIndex {
  return check(
    { bom: layout.bom, header: layout.header, width: layout.width, eol: layout.eol, widths: layout.widths },
    Uint32Array.from(layout.start),
    Uint32Array.from(layout.end),
    Object.keys(layout.formulas).map(Number),
  );
}

/** The names of the object's members (the formula rows' numbers), their values stepped over. */
function memberNames(bytes: Buffer, at: number): number[] {
  const rows: number[] = [];
  eachMember(bytes, at, (name) => rows.push(Number(name)));
  return rows;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function check(found: Partial<Record<'bom' | 'header' | 'width' | 'eol' | 'widths', unknown>>, start: Uint32Array | null, end: Uint32Array | null, formulaRows: number[] | null): LayoutIndex {
  const { bom, header, width, eol, widths } = found;
  if (typeof bom !== 'boolean' || !isRecord(header) || !isCount(width) || typeof eol !== 'string' || !isRecord(widths) || !start || !end || !formulaRows) {
    throw new Error('layout: a member is missing or of the wrong kind');
  }
  if (!isCount(header.start) || !isCount(header.end) || typeof header.eol !== 'string' || !isCount(header.width)) throw new Error('layout: the header is not a record span');
  if (header.formulaFields !== undefined && !(Array.isArray(header.formulaFields) && header.formulaFields.every((f) => typeof f === 'string'))) throw new Error('layout: the header fields are not strings');
  const n = start.length;
  if (end.length !== n || eol.length !== n) throw new Error(`layout: ${n} starts, ${end.length} ends and ${eol.length} line endings`);
  if (!/^[cnr-]*$/.test(eol)) throw new Error('layout: a line ending is not one of c, n, r, -');
  for (const [row, w] of Object.entries(widths)) if (!isRow(Number(row), n) || !isCount(w)) throw new Error(`layout: width of row ${row} is not a count of a row`);
  const formula = new Uint8Array(n);
  for (const row of formulaRows) {
    if (!isRow(row, n)) throw new Error(`layout: formula row ${row} is not a row`);
    formula[row] = 1;
  }
  return { bom, header: header as unknown as RecordSpan, width, start, end, eol, widths: widths as Record<number, number>, formula };
}

const isRow = (row: number, n: number): boolean => Number.isInteger(row) && row >= 0 && row < n;
