import { ENTITIES, indexPatterns } from '../lambdas/platform/table-entities';
import type { IndexName } from '../lambdas/platform/table-definition';

// The partition keys of the single table, as IAM's dynamodb:LeadingKeys sees them: for each
// pattern of lambdas/platform/table-entities.json, the literal part before the first `<value>`, as
// a StringLike pattern: `ORG#*` for `ORG#<org>`, `BALANCES` for the constant partition of every balance.

/** A partition-key pattern: `PREFIX#*` (a family of partitions) or a constant partition. */
export type KeyPattern = string;

/** `ORG#<org>#KEYS` → `ORG#*`; `BALANCES` → `BALANCES`. */
export function keyPattern(pattern: string): KeyPattern {
  const at = pattern.indexOf('<');
  return at === -1 ? pattern : `${pattern.slice(0, at)}*`;
}

/** Every partition-key pattern of the table itself. */
export const TABLE_KEY_PATTERNS: ReadonlySet<KeyPattern> = new Set(Object.values(ENTITIES).map((e) => keyPattern(e.pk)));

/** Every partition-key pattern of each index. */
export const INDEX_KEY_PATTERNS: Readonly<Record<IndexName, ReadonlySet<KeyPattern>>> = (() => {
  const out: Record<IndexName, Set<KeyPattern>> = { gsi1: new Set(), gsi2: new Set(), gsi3: new Set() };
  for (const entity of Object.values(ENTITIES)) {
    for (const [index, patterns] of Object.entries(entity.indexes ?? {}) as [IndexName, Parameters<typeof indexPatterns>[0]][]) {
      for (const p of indexPatterns(patterns)) out[index].add(keyPattern(p.pk));
    }
  }
  return out;
})();
