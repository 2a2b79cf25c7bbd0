import { ANSWER_INTENTS, deriveStatus, TIERS, type AnswerIntent, type IdentityBand } from '../classification/vocabulary';
import type { WorkRow } from './plan';
import type { ResultSummary } from './upload';

/** One classified number of a row; null where the column held no number (blank cell). */
export interface CellResult {
  status: string;
  answerIntent: AnswerIntent;
  identity: IdentityBand | null;
}

export interface RowResult {
  cells: (CellResult | null)[];
  /** The row's best status (its rank decides sorting and the summary). */
  best: string;
  bestIdentity: IdentityBand | null;
}

const UNKNOWN: CellResult = { status: 'Unknown', answerIntent: 'Unknown', identity: null };

/** Work key of a number to classify: the number, and with identity the name it must match. */
export function classifyKey(e164: string, name: WorkRow['name'] | undefined, identity: boolean): string {
  return identity ? `${e164}|${JSON.stringify(name ?? null)}` : e164;
}

export const vocabularyFor = (identity: boolean): readonly string[] => (identity ? TIERS : ANSWER_INTENTS);

export function rankOf(status: string, identity: boolean): number {
  const index = vocabularyFor(identity).indexOf(status);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/**
 * Row results from the work rows and the classifier's answers by key. A row with no valid number
 * at all is `Unknown` (spec: "no result for this number").
 */
export function rowResults(
  rows: WorkRow[],
  identity: boolean,
  lookup: (key: string) => { answerIntent: AnswerIntent; identity: IdentityBand | null } | undefined,
): RowResult[] {
  return rows.map((row) => {
    const cells = row.numbers.map((n) => cellResult(n, Boolean(row.name), n ? lookup(classifyKey(n, row.name, identity)) : undefined, identity));
    return { cells, ...bestOf(cells, identity) };
  });
}

export function summarize(results: ResultRows, identity: boolean, simulated = false): ResultSummary {
  const statusCounts: Record<string, number> = Object.fromEntries(vocabularyFor(identity).map((v) => [v, 0]));
  const identityCounts: Record<string, number> = {};
  for (let i = 0; i < results.length; i++) {
    const r = results.at(i)!;
    statusCounts[r.best] = (statusCounts[r.best] ?? 0) + 1;
    if (identity) identityCounts[r.bestIdentity ?? 'Unknown'] = (identityCounts[r.bestIdentity ?? 'Unknown'] ?? 0) + 1;
  }
  return {
    format: identity ? 'identity' : 'answer_intent',
    total_rows: results.length,
    status_counts: statusCounts,
    identity_counts: identityCounts,
    has_answer_intent_column: true,
    has_identity_column: identity,
    simulated,
  };
}

/** Row results read by index: a RowResult[] or a ResultTable. */
export interface ResultRows {
  readonly length: number;
  at(index: number): RowResult | undefined;
}

/** The classifier's answer for one distinct item, as finalize joins it to the rows. */
export interface ItemAnswer {
  answerIntent: AnswerIntent;
  identity: IdentityBand | null;
}

/**
 * Row results in a few bytes per row: each cell a code into a small table of the distinct cell
 * results (0 = no number in that cell), rows built on demand. 250,000 rows of RowResult objects
 * take tens of MB; this takes one byte per cell.
 */
export class ResultTable implements ResultRows {
  private readonly index = new Map<string, number>();

  constructor(
    readonly columns: number,
    readonly identity: boolean,
    readonly cells: Uint8Array,
    readonly table: CellResult[] = [],
  ) {
    table.forEach((c, i) => this.index.set(cellKey(c), i + 1));
  }

  get length(): number {
    return this.columns ? this.cells.length / this.columns : 0;
  }

  /** The code of a cell result, added to the table when new (at most 255 distinct results). */
  codeOf(cell: CellResult | null): number {
    if (!cell) return 0;
    const key = cellKey(cell);
    let code = this.index.get(key);
    if (code === undefined) {
      if (this.table.length >= 255) throw new Error('more than 255 distinct cell results');
      this.table.push(cell);
      code = this.table.length;
      this.index.set(key, code);
    }
    return code;
  }

  at(i: number): RowResult | undefined {
    if (i < 0 || i >= this.length) return undefined;
    const cells = new Array<CellResult | null>(this.columns);
    for (let c = 0; c < this.columns; c++) {
      const code = this.cells[i * this.columns + c]!;
      cells[c] = code ? this.table[code - 1]! : null;
    }
    return { cells, ...bestOf(cells, this.identity) };
  }
}

const cellKey = (c: CellResult): string => `${c.status}|${c.answerIntent}|${c.identity ?? ''}`;

function bestOf(cells: (CellResult | null)[], identity: boolean): Pick<RowResult, 'best' | 'bestIdentity'> {
  let best: CellResult | null = null;
  for (const cell of cells) if (cell && (!best || rankOf(cell.status, identity) < rankOf(best.status, identity))) best = cell;
  return { best: best?.status ?? 'Unknown', bestIdentity: identity ? (best?.identity ?? 'Unknown') : null };
}

/** One cell's result: '' no number, null invalid, else the answer of its item (undefined: none). */
export function cellResult(number: string | null, named: boolean, answer: ItemAnswer | undefined, identity: boolean): CellResult | null {
  if (number === '') return null;
  if (number === null || !answer) return UNKNOWN;
  const band = identity ? (named ? answer.identity ?? 'Unknown' : 'Unknown') : null;
  return { status: deriveStatus(answer.answerIntent, band), answerIntent: answer.answerIntent, identity: band };
}

/** The results file: version 2 is the table and the cell codes (base64); version 1 held RowResult objects. */
export function serializeResults(results: ResultTable): string {
  return JSON.stringify({ v: 2, columns: results.columns, identity: results.identity, table: results.table, cells: Buffer.from(results.cells.buffer, results.cells.byteOffset, results.cells.byteLength).toString('base64') });
}

export function parseResults(bytes: Buffer): ResultRows {
  const stored = JSON.parse(bytes.toString('utf8')) as { v: 2; columns: number; identity: boolean; table: CellResult[]; cells: string } | { v?: undefined; rows: RowResult[] };
  if (stored.v === undefined) return stored.rows;
  if (stored.v !== 2) throw new Error(`results file version ${String((stored as { v: unknown }).v)} is not known`);
  return new ResultTable(stored.columns, stored.identity, new Uint8Array(Buffer.from(stored.cells, 'base64')), stored.table);
}
