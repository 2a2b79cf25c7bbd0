import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, queryItems, tableName, type Item } from './table';

// Something found through a secondary index is only a hint: an index copy can lag its item (in
// AWS, global indexes are eventually consistent; in the embedded store, a kill -9 between the index
// write and the item write left them apart until the start's integrity pass). So a claim or a
// conditional write never conditions on a value read from the index: it re-reads the base item,
// strongly consistent, decides on that, and conditions on the base item's own value.

/** The base item under `key`, strongly consistent; undefined when it is gone. */
export async function readBaseItem(key: Record<string, string>): Promise<Item | undefined> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return out.Item;
}

export interface IndexClaim {
  /** The item's table key. */
  key: Record<string, string>;
  /** The lease attribute the claim moves (an index sort key such as `gsi2sk`). */
  attribute: string;
  /** Its new value (the lease's end). */
  next: string;
  /** Whether the base item, as it is now, still owes what the index said it owed. */
  qualifies: (base: Item) => boolean;
  /** A further condition on the base item, for what can change without the lease attribute (`#status = :creating`). */
  also?: { expression: string; names?: Record<string, string>; values?: Record<string, unknown> };
}

/**
 * Claims an item found through an index: re-reads its base item and, if that still qualifies,
 * moves `attribute` from the base item's value to `next` in one write conditioned on that value.
 * Returns the base item as read (null when it is gone, no longer qualifies, or another worker
 * claimed it first).
 */
export async function claimFoundThroughIndex(claim: IndexClaim): Promise<Item | null> {
  const base = await readBaseItem(claim.key);
  if (!base || base[claim.attribute] === undefined || !claim.qualifies(base)) return null;
  const ok = await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: claim.key,
        UpdateExpression: 'SET #lease = :next',
        ConditionExpression: claim.also ? `#lease = :seen AND (${claim.also.expression})` : '#lease = :seen',
        ExpressionAttributeNames: { '#lease': claim.attribute, ...claim.also?.names },
        ExpressionAttributeValues: { ':seen': base[claim.attribute], ':next': claim.next, ...claim.also?.values },
      }),
    ),
  );
  return ok ? base : null;
}

/** What a recovery pass lists: the items a sparse index holds by stale time (`<stale time>#<id>`). */
export interface StaleListing {
  /** The index (`gsi2` or `gsi3`: its `…pk` holds `partition`, its `…sk` the stale time a claim moves). */
  index: 'gsi2' | 'gsi3';
  partition: string;
  nowMs: number;
  /** How far ahead a claim moves the stale time: the claiming worker's lease. */
  leaseMs: number;
  /** With `before`: every listed item whose `changed` attribute is before it, stale or not (a restart); else those whose stale time has passed. */
  changed: 'created_at' | 'updated_at';
  before?: string;
  /** At most this many index entries a call (the pass calls again while it claims); all when absent. */
  max?: number;
  /** A first cut on the index copies (saves reads; the base item still decides). */
  keep?: (item: Item) => boolean;
}

/** How each listed item is claimed and read. */
export interface StaleClaim<T> {
  /** The base item's key, and the id its stale time names, from an index copy. */
  keyOf(item: Item): { key: Record<string, string>; id: string };
  /** What the base item must also be to be claimed (a status). */
  qualifies?: (base: Item) => boolean;
  also?: IndexClaim['also'];
  /** The claimed base item as the caller's record; null leaves it out. */
  read(base: Item): T | null;
}

/**
 * The recovery passes' one claim loop: lists the items under the partition that are due, then
 * claims each through its base item (claimFoundThroughIndex), so that one worker takes it for
 * `leaseMs`. Reads first, then claims: a claim moves the item within the index being read.
 */
export async function claimStale<T>(listing: StaleListing, claim: StaleClaim<T>): Promise<T[]> {
  const [pkName, leaseName] = [`${listing.index}pk`, `${listing.index}sk`];
  const nowIso = new Date(listing.nowMs).toISOString();
  const { before, changed, partition } = listing;
  const found: Item[] = [];
  for await (const item of queryItems(
    {
      IndexName: listing.index,
      KeyConditionExpression: before === undefined ? `${pkName} = :pk AND ${leaseName} < :now` : `${pkName} = :pk`,
      ExpressionAttributeValues: before === undefined ? { ':pk': partition, ':now': nowIso } : { ':pk': partition },
    },
    listing.max,
    { keep: listing.keep },
  )) {
    found.push(item);
  }
  const claimed: T[] = [];
  for (const item of found) {
    const { key, id } = claim.keyOf(item);
    // The index copy only names the item: the claim decides on, and conditions on, its base item.
    const base = await claimFoundThroughIndex({
      key,
      attribute: leaseName,
      next: `${new Date(listing.nowMs + listing.leaseMs).toISOString()}#${id}`,
      qualifies: (current) =>
        current[pkName] === partition && (claim.qualifies?.(current) ?? true) && (before === undefined ? String(current[leaseName]) < nowIso : String(current[changed]) < before),
      also: claim.also,
    });
    const record = base ? claim.read(base) : null;
    if (record !== null) claimed.push(record);
  }
  return claimed;
}
