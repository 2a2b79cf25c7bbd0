import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName, updateReturning, type Item } from '../platform/table';
import { stampUpdate } from '../platform/table-entities';
import { toleranceMs, intervalMs, allows, type BucketShape } from './gcra';

// The API's two buckets of a request, the organization's and its key's, live on one item: the
// organization's bucket item (`RATE#org#<org>`) holds the organization's tat in `tat` and each key's
// in `key_<key id>`. One conditional UpdateItem checks and advances both, so a request costs one
// write, and a request the organization refuses never took a token from its key (nothing to give
// back). An absent key attribute is a full bucket, exactly like a tat in the past.
//
// Size: a key's tat is at most a minute ahead of its last request, so the attributes still in use
// are those of keys that made a request in the last minute, each of which also took one of the
// organization's tokens: at most 2 × the organization's limit of them (a full bucket plus a
// minute's refill), 3,000 at 1,500/min, about 50 bytes each (150 KB). Idle ones are removed once
// PRUNE_AT of them gather (pruneIdleKeys). The 400 KB item limit is therefore reached only with an
// organization limit above about 3,500/min (docs/credits-and-limits.md).

const BUCKET_STAMP = stampUpdate('RateBucket');
const orgBucketKey = (orgId: string) => ({ pk: `RATE#org#${orgId}`, sk: 'BUCKET' });
const KEY_PREFIX = 'key_';
const keyAttribute = (apiKeyId: string) => `${KEY_PREFIX}${apiKeyId}`;
// A bucket idle for a day is as good as full; TTL deletes the item.
const IDLE_TTL_S = 86_400;
/** Idle key attributes tolerated before a request removes them (one extra write per PRUNE_AT keys gone idle). */
const PRUNE_AT = 16;
/** At most this many attributes per removing write (keeps the expression well under 4 KB). */
const PRUNE_MAX = 100;
/** Each failed write means another request changed a bucket between this one's read and write; the bound stops a runaway. */
const MAX_ATTEMPTS = 8;

export interface RequestShapes {
  key: BucketShape;
  org: BucketShape;
}

export type TakeOutcome =
  | { taken: true; keyTat: number; orgTat: number }
  /** `tat`: the refusing bucket's, as read (undefined: the bucket was not the reason, see below). */
  | { taken: false; scope: 'per_key' | 'per_org'; tat: number | undefined };

type Branch = 'spend' | 'restart';

// The tats this container last wrote: which branch of each bucket will most likely succeed. Only
// the order of attempts follows them, never an outcome (every write keeps its own condition), so
// a stale guess costs a read and a second write. A bucket this container has not written is taken
// as full (restart): so it is for every client below the bucket's rate (a key under 10 requests a
// second finds its tat in the past at each request), and for a bucket nobody has used yet.
const lastTat = new Map<string, number>();
const MAX_REMEMBERED = 10_000;

function remember(bucket: string, tat: number): void {
  if (lastTat.size >= MAX_REMEMBERED && !lastTat.has(bucket)) lastTat.clear();
  lastTat.set(bucket, tat);
}

const guess = (bucket: string, now: number): Branch => branchFor(lastTat.get(bucket), now);

/** Restart a bucket that is full (tat in the past, or never used); spend from one in use. */
const branchFor = (tat: number | undefined, now: number): Branch => (tat === undefined || tat < now ? 'restart' : 'spend');

/** Takes one token from the key's bucket and one from the organization's, both or neither. */
export async function takeKeyAndOrgTokens(apiKeyId: string, orgId: string, shapes: RequestShapes, now: number): Promise<TakeOutcome> {
  const keyMemo = `${orgId}/${apiKeyId}`;
  let branches = { key: guess(keyMemo, now), org: guess(orgId, now) };
  let lastKeyTat: number | undefined;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const item = await tryTake(apiKeyId, orgId, shapes, branches, now);
    if (item) {
      const keyTat = Number(item[keyAttribute(apiKeyId)]);
      const orgTat = Number(item.tat);
      remember(keyMemo, keyTat);
      remember(orgId, orgTat);
      await pruneIdleKeys(orgId, item, now);
      return { taken: true, keyTat, orgTat };
    }
    const current = await readOrgBucket(orgId);
    const keyTat = tatOf(current?.[keyAttribute(apiKeyId)]);
    const orgTat = tatOf(current?.tat);
    // The key is checked first: when both refuse, the client is told about its key.
    if (!allows(shapes.key, keyTat, now)) return { taken: false, scope: 'per_key', tat: keyTat };
    if (!allows(shapes.org, orgTat, now)) return { taken: false, scope: 'per_org', tat: orgTat };
    branches = { key: branchFor(keyTat, now), org: branchFor(orgTat, now) };
    lastKeyTat = keyTat;
  }
  // Both buckets had room at every read but every write lost a race: refuse (a short wait).
  return { taken: false, scope: 'per_key', tat: lastKeyTat };
}

async function tryTake(apiKeyId: string, orgId: string, shapes: RequestShapes, branches: { key: Branch; org: Branch }, now: number): Promise<Item | null> {
  const names: Record<string, string> = { '#o': 'tat', '#k': keyAttribute(apiKeyId), '#ttl': 'ttl', ...BUCKET_STAMP.names };
  const values: Record<string, unknown> = { ':now': now, ':ttl': Math.ceil(now / 1000) + IDLE_TTL_S, ...BUCKET_STAMP.values };
  const sets = ['#ttl = :ttl', BUCKET_STAMP.set];
  const conditions: string[] = [];
  for (const [alias, shape, branch] of [
    ['o', shapes.org, branches.org],
    ['k', shapes.key, branches.key],
  ] as const) {
    if (branch === 'spend') {
      // Arithmetic, not a snapshot: concurrent spends never fail each other until the bucket is empty.
      sets.push(`#${alias} = #${alias} + :${alias}t`);
      conditions.push(`#${alias} >= :now AND #${alias} <= :${alias}limit`);
      values[`:${alias}t`] = intervalMs(shape);
      values[`:${alias}limit`] = now + toleranceMs(shape);
    } else {
      sets.push(`#${alias} = :${alias}next`);
      conditions.push(`(attribute_not_exists(#${alias}) OR #${alias} < :now)`);
      values[`:${alias}next`] = now + intervalMs(shape);
    }
  }
  // The whole item as written (ALL_NEW): both tats for the headers, and the idle keys to prune.
  return updateReturning({
    Key: orgBucketKey(orgId),
    UpdateExpression: `SET ${sets.join(', ')}`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
  });
}

/**
 * Removes key attributes whose tat lies in the past (full buckets: removing one changes nothing)
 * once PRUNE_AT of them gathered. Each is removed only if still idle, so a key that was used
 * meanwhile keeps its state; when one was, nothing is removed and a later request tries again.
 */
async function pruneIdleKeys(orgId: string, item: Item, now: number): Promise<void> {
  const idle = Object.keys(item)
    .filter((name) => name.startsWith(KEY_PREFIX) && Number(item[name]) < now)
    .slice(0, PRUNE_MAX);
  if (idle.length < PRUNE_AT) return;
  const names = Object.fromEntries(idle.map((name, i) => [`#i${i}`, name]));
  try {
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: orgBucketKey(orgId),
        UpdateExpression: `REMOVE ${Object.keys(names).join(', ')}`,
        ConditionExpression: Object.keys(names)
          .map((alias) => `${alias} < :now`)
          .join(' AND '),
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: { ':now': now },
      }),
    );
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
}

async function readOrgBucket(orgId: string): Promise<Item | undefined> {
  return (await db().send(new GetCommand({ TableName: tableName(), Key: orgBucketKey(orgId), ConsistentRead: true }))).Item;
}

const tatOf = (value: unknown): number | undefined => (value === undefined ? undefined : Number(value));
