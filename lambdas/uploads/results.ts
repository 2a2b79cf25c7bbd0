import { ANSWER_INTENTS, deriveStatus, TIERS, type AnswerIntent, type IdentityBand } from '../classification';
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
    const cells = row.numbers.map((n): CellResult | null => {
      if (n === '') return null;
      if (n === null) return UNKNOWN;
      const answer = lookup(classifyKey(n, row.name, identity));
      if (!answer) return UNKNOWN;
      const band = identity ? (row.name ? answer.identity ?? 'Unknown' : 'Unknown') : null;
      return { status: deriveStatus(answer.answerIntent, band), answerIntent: answer.answerIntent, identity: band };
    });
    let best: CellResult | null = null;
    for (const cell of cells) if (cell && (!best || rankOf(cell.status, identity) < rankOf(best.status, identity))) best = cell;
    return { cells, best: best?.status ?? 'Unknown', bestIdentity: identity ? (best?.identity ?? 'Unknown') : null };
  });
}

export function summarize(results: RowResult[], identity: boolean, simulated = false): ResultSummary {
  const statusCounts: Record<string, number> = Object.fromEntries(vocabularyFor(identity).map((v) => [v, 0]));
  const identityCounts: Record<string, number> = {};
  for (const r of results) {
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
