import { parseCsv, safeCsvCell } from './csv';
import { rankOf, type RowResult } from './results';
import { layoutOf, type CsvLayout, type RecordSpan } from './work-file';

export interface SliceOptions {
  /** Keep a row when any of its numbers has one of these statuses. */
  statuses?: Set<string>;
  /** Add the identity column(s) to a single-column identity upload. */
  includeIdentity?: boolean;
  /** `best_status`: rows ranked by their best number, best first (stable); default: file order. */
  sort?: 'best_status';
  /** OWASP CSV-injection defence on the customer's cells too (they are kept exactly otherwise). */
  neutralizeFormulas?: boolean;
}

/**
 * The record's source text; with `neutralize`, a record holding a formula-like cell is written
 * again, each such cell as safeCsvCell writes it (the others as their value needs).
 */
function recordText(original: string, record: RecordSpan, neutralize: boolean): string {
  if (!neutralize || !record.formulaFields) return original.slice(record.start, record.end);
  return record.formulaFields.map(safeCsvCell).join(',');
}

/**
 * The processed file: the original rows, byte for byte (quoting, empty cells, extra columns, BOM,
 * line endings), with the service's columns appended (spec, "Processed file columns"). Only
 * `neutralizeFormulas` changes customer cells.
 */
export function buildProcessedCsv(original: string, phoneColumns: string[], identity: boolean, results: RowResult[], options: SliceOptions = {}): string {
  const parsed = parseCsv(original);
  if (!parsed.records.length) return original;
  return writeProcessedCsv(original, layoutOf(parsed), phoneColumns, identity, results, options);
}

/** buildProcessedCsv from the layout stored at create (work-file.ts): the original is not parsed again. */
export function writeProcessedCsv(original: string, layout: CsvLayout, phoneColumns: string[], identity: boolean, results: RowResult[], options: SliceOptions = {}): string {
  const { bom, header, rows } = layout;
  const single = phoneColumns.length === 1;
  const withIdentity = identity && (!single || options.includeIdentity === true);
  const added = single
    ? ['Service_Status', ...(withIdentity ? ['Service_Identity'] : [])]
    : phoneColumns.flatMap((c) => [`${c}_Service_Status`, ...(identity ? [`${c}_Service_Answer_Intent`, `${c}_Service_Identity`] : [])]);

  let order = rows.map((_, i) => i);
  if (options.statuses) {
    const wanted = options.statuses;
    order = order.filter((i) => results[i]!.cells.some((c) => c && wanted.has(c.status)) || (wanted.has('Unknown') && results[i]!.best === 'Unknown'));
  }
  if (options.sort === 'best_status') {
    order = order
      .map((i) => ({ i, rank: rankOf(results[i]!.best, identity) }))
      .sort((a, b) => a.rank - b.rank || a.i - b.i)
      .map((x) => x.i);
  }

  const width = header.width;
  const line = (recordIndex: number, cells: string[]): string => {
    const record = recordIndex < 0 ? header : rows[recordIndex]!;
    const padding = ','.repeat(Math.max(0, width - record.width));
    return recordText(original, record, options.neutralizeFormulas === true) + padding + ',' + cells.map(safeCsvCell).join(',');
  };
  const eol = header.eol || '\n';
  const out: string[] = [line(-1, added)];
  for (const i of order) {
    const r = results[i]!;
    const cells = single
      ? [r.cells[0]?.status ?? r.best, ...(withIdentity ? [r.cells[0]?.identity ?? r.bestIdentity ?? 'Unknown'] : [])]
      : r.cells.flatMap((c) => (c ? [c.status, ...(identity ? [c.answerIntent, c.identity ?? ''] : [])] : ['', ...(identity ? ['', ''] : [])]));
    out.push(line(i, cells));
  }
  // Keep the original's ending: a file without a final newline stays without one.
  const last = rows.length ? rows[rows.length - 1]! : header;
  return (bom ? '\uFEFF' : '') + out.join(eol) + (last.eol ? eol : '');
}
