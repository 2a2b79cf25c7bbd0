// The credits page's ledger, reconciled: the rows shown and, when they do not reach the balance
// (entries older than the newest shown, or a balance opened before its first allocation was
// recorded), one row for what came before them, so the column always adds up to the balance.

export interface LedgerLine {
  change_id: string;
  kind: string;
  amount: number;
  reason: string;
  created_at: string;
}

const KIND_WORDS: Record<string, string> = {
  replenish: 'subscription allocation',
  debit: 'charge',
  refund: 'refund',
  purchase: 'purchase',
  adjustment: 'adjustment',
};

export const kindWords = (kind: string): string => KIND_WORDS[kind] ?? kind;

/** What the rows shown leave unexplained of the balance: 0 when they add up to it. */
export function carriedBefore(total: number, lines: readonly LedgerLine[]): number {
  return total - lines.reduce((sum, l) => sum + l.amount, 0);
}
