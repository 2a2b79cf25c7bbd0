import { InvalidInput, TooFewNumbers, TooLarge } from '../platform/domain-errors';
import { NEEDS_LIBPHONENUMBER, NOT_US_CA, e164OfNational, usCaNationalSlowly, usCaNationalWith, type SlowRead } from '../classification/normalize-on-demand';
import { DistinctNumbers } from './distinct-numbers';

export const MIN_NUMBERS = 100;
export const MAX_NUMBERS = 250_000;
export const MAX_PHONE_COLUMNS = 10;

export interface ColumnMapping {
  phoneColumns: string[];
  fullNameColumn?: string;
  firstNameColumn?: string;
  lastNameColumn?: string;
}

export interface WorkRow {
  /** Per mapped phone column: E.164, '' where the cell was empty, null where it held an invalid number. */
  numbers: (string | null)[];
  name?: { full?: string; first?: string; last?: string };
}

export interface UploadPlan {
  rows: WorkRow[];
  totalRows: number;
  validRowCount: number;
  validNumberCount: number;
  invalidCount: number;
  identity: boolean;
}

export type Tier = 'standard' | 'max';

/** Spec pricing: standard 1 per number; max ceil(n × 1.5). Identity does not change the price. */
export const priceOf = (validNumbers: number, tier: Tier): number => (tier === 'max' ? Math.ceil(validNumbers * 1.5) : validNumbers);

export type PlanCounts = Omit<UploadPlan, 'rows'>;

/** What RowCells holds for an empty phone cell. */
export const EMPTY_CELL = 0;
/** What RowCells holds for a phone cell that is not a valid US/CA number. */
export const INVALID_CELL = NOT_US_CA;

/**
 * A row as the planner reads it, written into an object the caller gives (create's planner gives
 * the same one for every row: csv-planner.ts), so that planning a row makes no string or object of
 * its own beyond its cells' text.
 */
export interface RowCells {
  /** Per mapped phone column: the national number of a valid US/CA number (normalize-core.ts's usCaNationalWith: its E.164 is '+1' and its digits), EMPTY_CELL or INVALID_CELL. */
  nationals: number[];
  /** The name, trimmed: `full`, or `first` and `last` (both set or both ''); '' where there is none. */
  full: string;
  first: string;
  last: string;
}

export const newRowCells = (): RowCells => ({ nationals: [], full: '', first: '', last: '' });

/** A row's cells as add() answers them, for the whole-file callers (plan-upload.ts). */
/** A cell of RowCells as WorkRow holds it: its E.164, '' for an empty cell, null for an invalid one. */
export const e164OfCell = (national: number): string | null => (national === EMPTY_CELL ? '' : national === INVALID_CELL ? null : e164OfNational(national));

function workRowOf(cells: RowCells, identity: boolean): WorkRow {
  const numbers = cells.nationals.map(e164OfCell);
  if (!identity) return { numbers };
  if (cells.full) return { numbers, name: { full: cells.full } };
  return cells.first ? { numbers, name: { first: cells.first, last: cells.last } } : { numbers };
}

/** How many of a header's names, and how many characters of each, a refusal lists. */
const LISTED_COLUMNS = 50;
const LISTED_NAME_CHARS = 100;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;

/**
 * A header's names for a refusal's message, quoted. A file's header is the uploader's and of any
 * size (5,000 columns, a 2 MB name): the list stops at LISTED_COLUMNS names of LISTED_NAME_CHARS
 * characters each and says how many it left out, so that the answer stays a few KB, within what a
 * Lambda may answer (6 MB) wherever the request was.
 */
export function columnList(header: readonly string[]): string {
  const cut = (name: string) => {
    if (name.length <= LISTED_NAME_CHARS) return name;
    // Not between the two halves of a surrogate pair.
    const end = isHighSurrogate(name.charCodeAt(LISTED_NAME_CHARS - 1)) ? LISTED_NAME_CHARS - 1 : LISTED_NAME_CHARS;
    return `${name.slice(0, end)}… (${name.length.toLocaleString('en-US')} characters)`;
  };
  const listed = header.slice(0, LISTED_COLUMNS).map((h) => `'${cut(h)}'`).join(', ');
  const more = header.length - LISTED_COLUMNS;
  return more > 0 ? `${listed} and ${more.toLocaleString('en-US')} more` : listed;
}

export interface RowPlanner {
  identity: boolean;
  /** The positions of the fields `add` reads (phone and name columns): a row's other fields may be anything. */
  columns: number[];
  /** Plans a row into `into` (a refusal for a malformed row); false when the row is pending: finish it with `resume` before filling another. */
  fill(fields: string[], into: RowCells): boolean;
  /** Plans a row (a refusal for a malformed row), when the planner was given a slowRead (so that no row waits). */
  add(fields: string[]): WorkRow;
  /** The row fill() left pending, finished into `into` (the one given to fill) with `slow`, which reads every later row's cells too. */
  resume(slow: SlowRead, into: RowCells): void;
  finish(): PlanCounts;
}

/**
 * The spec's upload rules one row at a time, in the file's order (create reads a file as it
 * arrives, csv-planner.ts): `fill` (or `add`) plans a row, `finish` applies the rules over the
 * whole (how many numbers) and gives the counts. The caller keeps the rows it needs.
 *
 * Cells the normalizer's scan cannot answer (normalize-core.ts: 25 in 1,000,000 of the bench's
 * mixed column) are read by `slowRead`, libphonenumber-js's. A caller that can wait gives none:
 * `fill` leaves the first row holding such a cell pending (it answers false), the caller loads the
 * reader (normalize-on-demand.ts's loadSlowRead) and resumes it, so a file of ordinary numbers is
 * planned without ever loading the library. Nothing of a pending row is counted twice.
 */
export function rowPlanner(header: string[], mapping: ColumnMapping, options: { minimum?: number; slowRead?: SlowRead | null } = {}): RowPlanner {
  const minimum = options.minimum ?? MIN_NUMBERS;
  // UTF-16 text without a BOM is valid UTF-8 when it is ASCII, a NUL after every character: its
  // columns would be listed as not matching, NULs and all, rather than the file's encoding named.
  if (header.some((h) => h.includes('\u0000'))) throw new InvalidInput('The header row holds NUL characters: the file looks like UTF-16 text; save the CSV as UTF-8 and upload it again');
  const index = (name: string, role: string): number => {
    const positions = header.flatMap((h, i) => (h.trim() === name ? [i] : []));
    if (positions.length === 0) throw new InvalidInput(`${role} '${name}' is not a column of the file; columns: ${columnList(header)}`);
    if (positions.length > 1) {
      throw new InvalidInput(`${role} '${name}' names ${positions.length} columns of the file (${columnList(positions.map((i) => header[i]!))}); column names must be unique once the spaces around them are left out`);
    }
    return positions[0]!;
  };
  const phoneIdx = mapping.phoneColumns.map((c) => index(c, 'phone column'));
  const fullIdx = mapping.fullNameColumn ? index(mapping.fullNameColumn, 'full_name_column') : -1;
  const firstIdx = mapping.firstNameColumn ? index(mapping.firstNameColumn, 'first_name_column') : -1;
  const lastIdx = mapping.lastNameColumn ? index(mapping.lastNameColumn, 'last_name_column') : -1;
  const identity = fullIdx >= 0 || (firstIdx >= 0 && lastIdx >= 0);

  const seen = new DistinctNumbers();
  let rowCount = 0;
  let validRows = 0;
  let invalid = 0;
  let slow = options.slowRead ?? null;
  /** The row fill() left PENDING: its fields, and the cell libphonenumber-js must read (the cells before it are in the caller's RowCells). */
  let pending: { fields: string[]; at: number; any: boolean } | null = null;
  const phones = phoneIdx.length;

  // The row's cells from `from` on (the cell at `from` already scanned when `resumed`), then its name.
  const readRow = (fields: string[], into: RowCells, from: number, any: boolean, resumed: boolean): boolean => {
    const nationals = into.nationals;
    if (nationals.length !== phones) nationals.length = phones;
    for (let c = from; c < phones; c++) {
      const cell = (fields[phoneIdx[c]!] ?? '').trim();
      if (!cell) {
        nationals[c] = EMPTY_CELL;
        continue;
      }
      const national = resumed && c === from ? usCaNationalSlowly(cell, slow!) : usCaNationalWith(cell, slow);
      if (national === NEEDS_LIBPHONENUMBER) {
        // A copy: the caller may fill the same array with its next record (csv.ts's reader does).
        pending = { fields: fields.slice(), at: c, any };
        return false;
      }
      nationals[c] = national;
      if (national === INVALID_CELL) {
        invalid++;
        continue;
      }
      seen.add(national);
      any = true;
    }
    if (any) validRows++;
    into.full = into.first = into.last = '';
    if (!identity) return true;
    const full = fullIdx >= 0 ? (fields[fullIdx] ?? '').trim() : '';
    if (full) {
      into.full = full;
      return true;
    }
    const first = firstIdx >= 0 ? (fields[firstIdx] ?? '').trim() : '';
    const last = lastIdx >= 0 ? (fields[lastIdx] ?? '').trim() : '';
    if (first && last) {
      into.first = first;
      into.last = last;
    }
    return true;
  };
  const fill = (fields: string[], into: RowCells): boolean => {
    if (pending) throw new Error('a row is pending: resume it before adding another');
    const r = rowCount++;
    if (fields.length > header.length) {
      throw new InvalidInput(`Row ${r + 2} has ${fields.length} fields but the header has ${header.length}; quote cells that contain commas`);
    }
    return readRow(fields, into, 0, false, false);
  };
  const add = (fields: string[]): WorkRow => {
    if (!slow) throw new Error('add() plans whole rows: give rowPlanner a slowRead, or use fill() and resume()');
    const cells = newRowCells();
    fill(fields, cells);
    return workRowOf(cells, identity);
  };
  const resume = (read: SlowRead, into: RowCells): void => {
    if (!pending) throw new Error('no row is pending');
    slow = read;
    const { fields, at, any } = pending;
    pending = null;
    readRow(fields, into, at, any, true);
  };
  const finish = (): PlanCounts => {
    if (pending) throw new Error('plan finished with a row pending');
    if (seen.size > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} numbers per upload; got ${seen.size}`);
    if (seen.size < minimum) {
      throw new TooFewNumbers({
        error: 'min_contacts_required',
        min: MIN_NUMBERS,
        got: seen.size,
        message: `An upload needs at least ${MIN_NUMBERS} valid US/CA phone numbers; ${seen.size} remained after validation and de-duplication`,
      });
    }
    return { totalRows: rowCount, validRowCount: validRows, validNumberCount: seen.size, invalidCount: invalid, identity };
  };
  const columns = [...phoneIdx, fullIdx, firstIdx, lastIdx].filter((c) => c >= 0);
  return { identity, columns, fill, add, resume, finish };
}
