import { InvalidInput, TooFewNumbers, TooLarge } from '../platform/domain-errors';
import { NEEDS_LIBPHONENUMBER, normalizeSlowly, normalizeWith, type SlowRead } from '../classification/normalize-on-demand';
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

/** What RowPlanner.add answers for a row that must wait for libphonenumber-js (see rowPlanner). */
export const PENDING: unique symbol = Symbol('the row waits for libphonenumber-js');

export interface RowPlanner {
  identity: boolean;
  /** The positions of the fields `add` reads (phone and name columns): a row's other fields may be anything. */
  columns: number[];
  /** Plans a row (a refusal for a malformed row), or PENDING: finish that row with `resume` before adding another. */
  add(fields: string[]): WorkRow | typeof PENDING;
  /** The row add() left PENDING, finished with `slow`, which reads every later row's cells too. */
  resume(slow: SlowRead): WorkRow;
  finish(): PlanCounts;
}

/**
 * The spec's upload rules one row at a time, in the file's order (create reads a file as it
 * arrives, csv-planner.ts): `add` plans a row, `finish` applies the rules over the whole (how
 * many numbers) and gives the counts. The caller keeps the rows it needs.
 *
 * Cells the normalizer's scan cannot answer (normalize-core.ts: 25 in 1,000,000 of the bench's
 * mixed column) are read by `slowRead`, libphonenumber-js's. A caller that can wait gives none:
 * the first row holding such a cell is left PENDING, the caller loads the reader
 * (normalize-on-demand.ts's loadSlowRead) and resumes it, so a file of ordinary numbers is
 * planned without ever loading the library. Nothing of a PENDING row is counted twice.
 */
export function rowPlanner(header: string[], mapping: ColumnMapping, options: { minimum?: number; slowRead?: SlowRead | null } = {}): RowPlanner {
  const minimum = options.minimum ?? MIN_NUMBERS;
  const index = (name: string, role: string): number => {
    const positions = header.flatMap((h, i) => (h.trim() === name ? [i] : []));
    if (positions.length === 0) throw new InvalidInput(`${role} '${name}' is not a column of the file; columns: ${header.map((h) => `'${h}'`).join(', ')}`);
    if (positions.length > 1) throw new InvalidInput(`${role} '${name}' names ${positions.length} columns of the file; column names must be unique`);
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
  /** The row add() left PENDING: its fields, the cells read so far, and the cell libphonenumber-js must read. */
  let pending: { fields: string[]; numbers: (string | null)[]; at: number; any: boolean } | null = null;

  // The row's cells from `from` on (the cell at `from` already scanned when `resumed`), then its name.
  const readRow = (fields: string[], numbers: (string | null)[], from: number, any: boolean, resumed: boolean): WorkRow | typeof PENDING => {
    for (let c = from; c < phoneIdx.length; c++) {
      const cell = (fields[phoneIdx[c]!] ?? '').trim();
      if (!cell) {
        numbers[c] = '';
        continue;
      }
      const normalized = resumed && c === from ? normalizeSlowly(cell, slow!) : normalizeWith(cell, slow);
      if (normalized === NEEDS_LIBPHONENUMBER) {
        pending = { fields, numbers, at: c, any };
        return PENDING;
      }
      if (!normalized) {
        invalid++;
        numbers[c] = null;
        continue;
      }
      numbers[c] = normalized.e164;
      seen.add(normalized.e164);
      any = true;
    }
    if (any) validRows++;
    // Each row built whole by one literal: a name added to a made row changed its shape, row by row.
    if (!identity) return { numbers };
    const full = fullIdx >= 0 ? (fields[fullIdx] ?? '').trim() : '';
    if (full) return { numbers, name: { full } };
    const first = firstIdx >= 0 ? (fields[firstIdx] ?? '').trim() : '';
    const last = lastIdx >= 0 ? (fields[lastIdx] ?? '').trim() : '';
    return first && last ? { numbers, name: { first, last } } : { numbers };
  };
  const add = (fields: string[]): WorkRow | typeof PENDING => {
    if (pending) throw new Error('a row is pending: resume it before adding another');
    const r = rowCount++;
    if (fields.length > header.length) {
      throw new InvalidInput(`Row ${r + 2} has ${fields.length} fields but the header has ${header.length}; quote cells that contain commas`);
    }
    return readRow(fields, new Array(phoneIdx.length), 0, false, false);
  };
  const resume = (read: SlowRead): WorkRow => {
    if (!pending) throw new Error('no row is pending');
    slow = read;
    const { fields, numbers, at, any } = pending;
    pending = null;
    return readRow(fields, numbers, at, any, true) as WorkRow;
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
  return { identity, columns, add, resume, finish };
}
