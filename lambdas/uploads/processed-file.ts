import { parseCsv, recordFields, safeCsvCell } from './csv';
import { rankOf, ResultTable, type ResultRows, type RowResult } from './results';
import { layoutOf, storedLayoutOf, type CsvLayout } from './work-file';
import { layoutIndexOf, rowEol, rowsOf, rowWidth, type LayoutIndex } from './layout-index';
import { byteSpans, type ByteSpans } from './byte-offsets';
import { inMemory, type OriginalBytes } from './original-bytes';
import { ByteSink } from './byte-sink';
import type { ProcessedLines } from './slice-index';
import type { ObjectWriter } from '../platform/blob';

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
 * The processed file: the original rows, byte for byte (quoting, empty cells, extra columns, BOM,
 * line endings), with the service's columns appended (spec, "Processed file columns"). Only
 * `neutralizeFormulas` changes customer cells.
 */
export function buildProcessedCsv(original: string, phoneColumns: string[], identity: boolean, results: ResultRows, options: SliceOptions = {}): string {
  const parsed = parseCsv(original);
  if (!parsed.records.length) return original;
  return writeProcessedCsv(original, layoutOf(parsed), phoneColumns, identity, results, options);
}

/** buildProcessedCsv from a layout already known: the original is not parsed again. */
export function writeProcessedCsv(original: string, layout: CsvLayout, phoneColumns: string[], identity: boolean, results: ResultRows, options: SliceOptions = {}): string {
  return writeProcessedBytes(Buffer.from(original, 'utf8'), 0, layoutIndexOf(storedLayoutOf(layout)), phoneColumns, identity, results, options).toString('utf8');
}

/** What the processed file and its slices are written from: the original's bytes and where its records sit, and the results. */
export interface ProcessedSource {
  original: OriginalBytes;
  /** Each record's bytes in `original` (byte-offsets.ts). */
  spans: ByteSpans;
  layout: LayoutIndex;
  phoneColumns: string[];
  identity: boolean;
  results: ResultRows;
}

/**
 * The original in memory, as the positional forms below take it. `skip` is what precedes the text
 * the layout's offsets count in (3 for a BOM the decoder dropped).
 */
type InMemory = [original: Buffer, skip: number, layout: LayoutIndex, phoneColumns: string[], identity: boolean, results: ResultRows];

export const inMemorySource = (...[original, skip, layout, phoneColumns, identity, results]: InMemory): ProcessedSource => ({
  original: inMemory(original),
  spans: byteSpans(original, skip, layout),
  layout,
  phoneColumns,
  identity,
  results,
});

/** Where the bytes go as they are written: drained into a part of `writer` each time `sink` holds `partBytes`. */
export interface PartTarget {
  writer: ObjectWriter;
  sink: ByteSink;
  partBytes: number;
  neutralWriter?: ObjectWriter;
}

/**
 * The processed file (or a slice) as bytes, from the original's bytes and the layout stored at
 * create (work-file.ts): each record's bytes are copied, never decoded. With `sink`, the bytes
 * are written into it (the answer is a view of its memory, valid until it is written again).
 * With `lines`, where each line went is recorded into it (for the slice index, slice-index.ts),
 * and the text neutralize_formulas would give the lines it changes.
 */
export function writeProcessedBytes(...[original, skip, layout, phoneColumns, identity, results, options = {}, sink, lines]: [...InMemory, options?: SliceOptions, sink?: ByteSink, lines?: ProcessedLines]): Buffer {
  const out = sink?.reset() ?? new ByteSink(original.length + rowsOf(layout) * 24);
  for (const need of processedBytes(inMemorySource(original, skip, layout, phoneColumns, identity, results), options, out, Infinity, lines)) {
    // Never yields a part (the whole file stays in `out`) nor a load (the original is at hand).
    if (need) throw new Error('the original in memory is always at hand');
  }
  return out.bytes();
}

/** One of the files `streamTogether` writes: what it holds, where it goes, and (the slice base) where its lines are recorded. */
export interface FileToWrite {
  options: SliceOptions;
  to: PartTarget;
  lines?: ProcessedLines;
}

/**
 * Several files written side by side (a sink each) from one reading of
 * the original: each file's writer runs until it needs bytes not at hand, and the bytes are read
 * for the one waiting on the earliest record the pass under way can still reach, so files in the
 * same order (file order, or the same sort) share every pass. A new pass is opened only when each
 * file waits on a record the pass has left behind (a sorted file at its next status).
 */
export async function streamTogether(source: ProcessedSource, files: FileToWrite[]): Promise<void> {
  if (new Set(files.map((f) => f.to.sink)).size !== files.length) throw new Error('files written side by side need a sink each');
  const runs = files.map(({ options, to, lines }) => {
    const out = to.sink.reset();
    const neutral = lines?.neutralOut ? { sink: lines.neutralOut.reset(), writer: to.neutralWriter } : null;
    if (neutral && !neutral.writer) throw new Error('the neutralized lines are written as they go only with a writer for them');
    return { to, out, neutral, steps: processedBytes(source, options, out, to.partBytes, lines), need: null as [number, number] | null };
  });
  // Runs a file's writer until it waits on bytes (its `need`) or its file is written.
  const advance = async (run: (typeof runs)[number]): Promise<void> => {
    for (;;) {
      const next = run.steps.next();
      if (next.done) {
        await run.to.writer.close(run.out.drain());
        if (run.neutral) await run.neutral.writer!.close(run.neutral.sink.drain());
        return;
      }
      if (next.value) {
        run.need = next.value;
        return;
      }
      if (run.out.pending >= run.to.partBytes) await run.to.writer.part(run.out.drain());
      if (run.neutral && run.neutral.sink.pending >= run.to.partBytes) await run.neutral.writer!.part(run.neutral.sink.drain());
    }
  };
  for (const run of runs) await advance(run);
  for (;;) {
    const waiting = runs.filter((r) => r.need);
    if (!waiting.length) return;
    const reachable = waiting.filter((r) => source.original.inPass(r.need![0]));
    const first = (reachable.length ? reachable : waiting).reduce((a, b) => (b.need![0] < a.need![0] ? b : a));
    const [start, end] = first.need!;
    first.need = null;
    // Every other file this pass still reaches waits on bytes at or after `start`: the load's window keeps them.
    await source.original.load(start, end);
    await advance(first);
  }
}

/**
 * The writer of both: yields null each time `out` holds `partBytes` not yet drained (the caller
 * drains them), and the bytes of the original to load before it can go on.
 */
function* processedBytes(source: ProcessedSource, options: SliceOptions, out: ByteSink, partBytes: number, lines?: ProcessedLines): Generator<[number, number] | null, void> {
  const { original, spans, layout, phoneColumns, identity, results } = source;
  const { bom, header } = layout;
  if (lines && (options.statuses || options.neutralizeFormulas)) throw new Error('the slice index is recorded from a file holding every row, as the original has them');
  const n = rowsOf(layout);
  const single = phoneColumns.length === 1;
  const withIdentity = identity && (!single || options.includeIdentity === true);
  const added = single
    ? ['Service_Status', ...(withIdentity ? ['Service_Identity'] : [])]
    : phoneColumns.flatMap((c) => [`${c}_Service_Status`, ...(identity ? [`${c}_Service_Answer_Intent`, `${c}_Service_Identity`] : [])]);

  // What a row's service cells are, its rank and whether a filter keeps it depend only on its
  // cells' results: each is worked out once per distinct result, so writing a row allocates
  // nothing (the young garbage of 250,000 rows per file promoted the stream's pieces in flight).
  const tailOf = perDistinctRow(results, (r) => {
    const cells = single
      ? [r.cells[0]?.status ?? r.best, ...(withIdentity ? [r.cells[0]?.identity ?? r.bestIdentity ?? 'Unknown'] : [])]
      : r.cells.flatMap((c) => (c ? [c.status, ...(identity ? [c.answerIntent, c.identity ?? ''] : [])] : ['', ...(identity ? ['', ''] : [])]));
    return ',' + cells.map(safeCsvCell).join(',');
  });
  /** The rows written, in order; null: every row, in file order. */
  let order: Uint32Array | null = null;
  if (options.statuses) {
    const wanted = options.statuses;
    const keeps = perDistinctRow(results, (r) => r.cells.some((c) => c && wanted.has(c.status)) || (wanted.has('Unknown') && r.best === 'Unknown'));
    const kept: number[] = [];
    for (let i = 0; i < n; i++) if (keeps(i)) kept.push(i);
    order = Uint32Array.from(kept);
  }
  if (options.sort === 'best_status') {
    // Stable: ties keep file order.
    const ranked = order ?? Uint32Array.from({ length: n }, (_, i) => i);
    const rankOfRow = perDistinctRow(results, (r) => rankOf(r.best, identity));
    const rank = new Float64Array(n);
    for (const i of ranked) rank[i] = rankOfRow(i);
    ranked.sort((a, b) => rank[a]! - rank[b]! || a - b);
    order = ranked;
  }

  const width = header.width;
  const neutralize = options.neutralizeFormulas === true;
  const eol = header.eol || '\n';
  if (bom) out.write('\uFEFF');
  const line = (recordIndex: number, tail: string): void => {
    const neutral = lines || neutralize ? neutralText(source, recordIndex) : undefined;
    const pad = ','.repeat(Math.max(0, width - (recordIndex < 0 ? header.width : rowWidth(layout, recordIndex))));
    if (lines) {
      if (out.length > 0xffffffff) throw new Error('the slice index counts bytes up to 4 GB');
      if (recordIndex < 0) lines.headerStart = out.length;
      else {
        lines.row[written] = recordIndex;
        lines.start[written] = out.length;
      }
      if (neutral !== undefined) recordNeutral(lines, recordIndex, neutral + pad + tail);
    }
    if (neutralize && neutral !== undefined) out.write(neutral);
    else if (recordIndex < 0) original.copy(out, spans.header[0], spans.header[1]);
    else original.copy(out, spans.start[recordIndex]!, spans.end[recordIndex]!);
    if (pad) out.write(pad);
    out.write(tail);
    if (lines && recordIndex < 0) lines.headerEnd = out.length;
    else if (lines) lines.end[written++] = out.length;
  };
  let written = 0;
  if (lines) Object.assign(lines, { eol, finalEol: false, row: new Uint32Array(n), start: new Uint32Array(n), end: new Uint32Array(n), neutral: {}, neutralHeader: undefined, neutralCount: 0 });
  lines?.neutralOut?.write('{"rows":{');
  if (!original.has(spans.header[0], spans.header[1])) yield spans.header;
  line(-1, ',' + added.map(safeCsvCell).join(','));
  const count = order ? order.length : n;
  for (let k = 0; k < count; k++) {
    const i = order ? order[k]! : k;
    if (!original.has(spans.start[i]!, spans.end[i]!)) yield [spans.start[i]!, spans.end[i]!];
    out.write(eol);
    line(i, tailOf(i));
    if (out.pending >= partBytes || (lines?.neutralOut?.pending ?? 0) >= partBytes) yield null;
  }
  // Keep the original's ending: a file without a final newline stays without one.
  const lastEol = n ? rowEol(layout, n - 1) : header.eol;
  if (lastEol) out.write(eol);
  if (lines) lines.finalEol = Boolean(lastEol);
  if (lines?.neutralOut) lines.neutralOut.write(`}${lines.neutralHeader === undefined ? '' : `,"header":${JSON.stringify(lines.neutralHeader)}`}}`);
}

/**
 * What neutralize_formulas writes for a record's own fields (row -1: the header), or undefined when
 * none of them reads as a formula. A row's fields are read again from its bytes in the original, at
 * hand when its line is written: the same fields create read (csv.ts reads a record alone as it
 * reads it inside the file), so the layout need not keep them (layout-index.ts).
 */
function neutralText({ original, spans, layout }: ProcessedSource, recordIndex: number): string | undefined {
  if (recordIndex < 0) return layout.header.formulaFields?.map(safeCsvCell).join(',');
  if (!layout.formula[recordIndex]) return undefined;
  const fields = recordFields(original.text(spans.start[recordIndex]!, spans.end[recordIndex]!));
  if (!fields) throw new Error(`row ${recordIndex} of the original is not one record where its layout places it`);
  return fields.map(safeCsvCell).join(',');
}

/**
 * A line neutralize_formulas changes (row -1: the header): kept in `lines`, or, with `neutralOut`,
 * written there as the next entry of the neutralized lines' JSON (`NeutralLines`), so a file with
 * many such lines is not held twice (as strings and as their JSON).
 */
function recordNeutral(lines: ProcessedLines, row: number, text: string): void {
  if (row < 0) lines.neutralHeader = text;
  else if (lines.neutralOut) lines.neutralOut.write(`${lines.neutralCount > (lines.neutralHeader === undefined ? 0 : 1) ? ',' : ''}"${row}":${JSON.stringify(text)}`);
  else lines.neutral[row] = text;
  lines.neutralCount++;
}

/**
 * `make` of each row's results, worked out once per distinct result of its cells when the results
 * are a ResultTable (a row is its cells' codes); a RowResult[] (results stored before the table)
 * has each row's made again.
 */
function perDistinctRow<T>(results: ResultRows, make: (row: RowResult) => T): (i: number) => T {
  // Up to 6 columns, a row's codes (a byte each) make one exact number key.
  if (!(results instanceof ResultTable) || results.columns > 6) return (i) => make(results.at(i)!);
  const { cells, columns } = results;
  const made = new Map<number, T>();
  return (i) => {
    let key = 0;
    for (let c = 0; c < columns; c++) key = key * 256 + cells[i * columns + c]!;
    if (made.has(key)) return made.get(key)!;
    const value = make(results.at(i)!);
    made.set(key, value);
    return value;
  };
}
