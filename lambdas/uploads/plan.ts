import { InvalidInput, TooFewNumbers, TooLarge } from '../platform/domain-errors';
import { normalizeUsCa } from '../classification';
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

/**
 * The spec's upload rules over a table (header + rows): columns exist, numbers normalize to
 * E.164, duplicates across columns and rows count once, 100–250,000 valid numbers.
 */
export function planUpload(header: string[], rows: string[][], mapping: ColumnMapping, options: { minimum?: number } = {}): UploadPlan {
  const planner = startPlan(header, rows, mapping, options);
  planner.validate(rows.length);
  return planner.finish();
}

/**
 * planUpload in steps of `every` rows, awaiting `progress(rows validated so far)` after each step
 * but the last: the console records how far validation is (at most one write per step) and, since
 * each step awaits, a single process goes on answering other requests meanwhile. Same rules,
 * same plan, same refusals as planUpload.
 */
export async function planUploadInSteps(
  header: string[],
  rows: string[][],
  mapping: ColumnMapping,
  options: { minimum?: number; every: number; progress: (validatedRows: number) => Promise<void> },
): Promise<UploadPlan> {
  if (!(options.every >= 1)) throw new RangeError('every must be at least 1 row');
  const planner = startPlan(header, rows, mapping, options);
  for (let done = 0; done < rows.length; ) {
    done = Math.min(rows.length, done + options.every);
    planner.validate(done);
    if (done < rows.length) await options.progress(done);
  }
  return planner.finish();
}

/** The rules, run over rows [validated so far, upTo) at each validate() call. */
function startPlan(header: string[], rows: string[][], mapping: ColumnMapping, options: { minimum?: number }): { validate(upTo: number): void; finish(): UploadPlan } {
  if (rows.length > MAX_NUMBERS) throw new TooLarge(`At most ${MAX_NUMBERS} rows per upload; got ${rows.length}`);
  const planner = rowPlanner(header, mapping, options);
  const work: WorkRow[] = new Array(rows.length);
  let next = 0;
  const validate = (upTo: number): void => {
    for (let r = next; r < upTo; r++) work[r] = planner.add(rows[r]!);
    next = upTo;
  };
  const finish = (): UploadPlan => {
    if (next !== rows.length) throw new Error(`plan finished after ${next} of ${rows.length} rows`);
    return { rows: work, ...planner.finish() };
  };
  return { validate, finish };
}

export type PlanCounts = Omit<UploadPlan, 'rows'>;

/**
 * The spec's upload rules one row at a time, in the file's order (create reads a file as it
 * arrives, csv-planner.ts): `add` plans a row (a refusal for a malformed row), `finish` applies
 * the rules over the whole (how many numbers) and gives the counts. The caller keeps the rows it needs.
 */
export function rowPlanner(header: string[], mapping: ColumnMapping, options: { minimum?: number } = {}): { identity: boolean; add(fields: string[]): WorkRow; finish(): PlanCounts } {
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
  const add = (fields: string[]): WorkRow => {
    const r = rowCount++;
    if (fields.length > header.length) {
      throw new InvalidInput(`Row ${r + 2} has ${fields.length} fields but the header has ${header.length}; quote cells that contain commas`);
    }
    const numbers: (string | null)[] = new Array(phoneIdx.length);
    let any = false;
    for (let c = 0; c < phoneIdx.length; c++) {
      const cell = (fields[phoneIdx[c]!] ?? '').trim();
      if (!cell) {
        numbers[c] = '';
        continue;
      }
      const normalized = normalizeUsCa(cell);
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
    const row: WorkRow = { numbers };
    if (identity) {
      const full = fullIdx >= 0 ? (fields[fullIdx] ?? '').trim() : '';
      const first = firstIdx >= 0 ? (fields[firstIdx] ?? '').trim() : '';
      const last = lastIdx >= 0 ? (fields[lastIdx] ?? '').trim() : '';
      if (full) row.name = { full };
      else if (first && last) row.name = { first, last };
    }
    return row;
  };
  const finish = (): PlanCounts => {
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
  return { identity, add, finish };
}
