import { libphonenumberRead } from '../classification';
import { TooLarge } from '../platform/domain-errors';
import { MAX_NUMBERS, rowPlanner, type ColumnMapping, type UploadPlan, type WorkRow } from './plan';

// The upload rules over a whole table at once (the console's draft, an upload's original read
// again), with libphonenumber-js loaded beside them: these callers answer without waiting.
// Create reads a file as it arrives and loads it only when a cell needs it (csv-planner.ts).

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
  const planner = rowPlanner(header, mapping, { minimum: options.minimum, slowRead: libphonenumberRead });
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

