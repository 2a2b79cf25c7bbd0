import { BatchGetCommand, BatchWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName, type Item } from '../platform/table';
import { stamp, stampUpdate } from '../platform/table-entities';
import { InvalidItemError, readEntity } from '../platform/table-read';
import { logger } from '../platform/logger';
import * as z from '../platform/zod';
import type { IdentityAnswer, NumberEntry } from './lookup-cache-policy';
import { identityRefKey, type CacheRead, type CacheWrite, type IdentityRef, type LookupCacheStore } from './lookup-cache-store';

// The lookup cache in the single table (docs/data-model.md): one LookupSignals item per number and
// provider, one LookupIdentity item per number, provider, scope and hashed name. DynamoDB's TTL
// (attribute `ttl`) deletes an item once its last answer is stale; reads also check the age.
// Read with BatchGetItem (100 keys a call) and written with BatchWriteItem (25 a call), unprocessed
// keys retried with backoff. A cache that cannot be read or written costs lookups, never results:
// keys still unprocessed after the retries are misses, and writes left over are logged.
// A number being bought is claimed on its LookupSignals item (`claim_by`, `claim_until`): one
// conditional UpdateItem, given back by the answer's put (which replaces the item) or, without an
// answer, by a conditional REMOVE.

export const lookupSignalsKey = (e164: string, provider: string) => ({ pk: `LOOKUP#${e164}`, sk: `SIGNALS#${provider}` });
export const lookupIdentityKey = (ref: IdentityRef, provider: string) => ({ pk: `LOOKUP#${ref.e164}`, sk: `IDENTITY#${provider}#${ref.scope}#${ref.nameHash}` });

const GET_BATCH = 100;
const WRITE_BATCH = 25;
const ATTEMPTS = 5;
/** How long after its claim ended an item holding only a claim stays before the table's TTL deletes it. */
const CLAIM_ITEM_GRACE_S = 86_400;
const defaultSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

const lineTypes = z.enum(['mobile', 'landline', 'fixedVoip', 'nonFixedVoip', 'voip', 'tollFree', 'premium', 'personal', 'pager', 'sharedCost', 'unknown']);
const signalsSchema = z.lazySchema(() => z.looseObject({
  e164: z.string(),
  provider: z.string(),
  line: z.optional(z.object({ line_type: lineTypes, carrier: z.nullable(z.string()), call_screening: z.nullable(z.boolean()), activity_score: z.optional(z.nullable(z.number())), ported: z.optional(z.nullable(z.boolean())), at: z.number() })),
  status: z.optional(z.object({ line_status: z.nullable(z.enum(['active', 'inactive', 'unreachable', 'unknown'])), at: z.number() })),
}));
const identitySchema = z.lazySchema(() => z.looseObject({
  e164: z.string(),
  provider: z.string(),
  scope: z.string(),
  name_match_score: z.nullable(z.number()),
  name_match: z.optional(z.nullable(z.boolean())),
  caller_name: z.nullable(z.string()),
  at: z.number(),
}));

/** A cache item that does not read is a miss (and a warning), not a failed chunk. */
function readOrMiss<T>(read: () => T | null): T | null {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof InvalidItemError)) throw error;
    logger.warn('lookup cache item ignored', { reason: error.message });
    return null;
  }
}

function toNumberEntry(item: Item): NumberEntry | null {
  const record = readOrMiss(() => readEntity('LookupSignals', signalsSchema, item));
  if (!record) return null;
  return {
    ...(record.line ? { line: { lineType: record.line.line_type, carrier: record.line.carrier, callScreening: record.line.call_screening, activityScore: record.line.activity_score ?? null, ported: record.line.ported ?? null, at: record.line.at } } : {}),
    ...(record.status ? { status: { lineStatus: record.status.line_status, at: record.status.at } } : {}),
  };
}

function toIdentityAnswer(item: Item): IdentityAnswer | null {
  const record = readOrMiss(() => readEntity('LookupIdentity', identitySchema, item));
  return record ? { nameMatchScore: record.name_match_score, nameMatch: record.name_match ?? null, callerName: record.caller_name, at: record.at } : null;
}

export function dynamoLookupCache(options: { sleep?: (ms: number) => Promise<void> } = {}): LookupCacheStore {
  const sleep = options.sleep ?? defaultSleep;

  async function batchGet(keys: { pk: string; sk: string }[]): Promise<Item[]> {
    const found: Item[] = [];
    for (let i = 0; i < keys.length; i += GET_BATCH) {
      let pending: Record<string, unknown>[] = keys.slice(i, i + GET_BATCH);
      for (let attempt = 0; pending.length && attempt < ATTEMPTS; attempt++) {
        if (attempt) await sleep(25 * 2 ** attempt);
        const out = await db().send(new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending } } }));
        found.push(...(out.Responses?.[tableName()] ?? []));
        pending = out.UnprocessedKeys?.[tableName()]?.Keys ?? [];
      }
      if (pending.length) logger.warn('lookup cache: keys still unprocessed after retries are misses', { keys: pending.length });
    }
    return found;
  }

  async function batchWrite(items: Item[]): Promise<void> {
    for (let i = 0; i < items.length; i += WRITE_BATCH) {
      let pending = items.slice(i, i + WRITE_BATCH).map((Item) => ({ PutRequest: { Item } }));
      for (let attempt = 0; pending.length && attempt < ATTEMPTS; attempt++) {
        if (attempt) await sleep(25 * 2 ** attempt);
        const out = await db().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
        pending = (out.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      }
      if (pending.length) logger.warn('lookup cache: answers still unprocessed after retries are not kept', { items: pending.length });
    }
  }

  return {
    async read(provider, keys): Promise<CacheRead> {
      const result: CacheRead = { numbers: new Map(), identities: new Map() };
      const wanted = new Map<string, { pk: string; sk: string }>();
      for (const e164 of keys.numbers) {
        const key = lookupSignalsKey(e164, provider);
        wanted.set(`${key.pk}|${key.sk}`, key);
      }
      const refsByKey = new Map<string, IdentityRef>();
      for (const ref of keys.identities) {
        const key = lookupIdentityKey(ref, provider);
        wanted.set(`${key.pk}|${key.sk}`, key);
        refsByKey.set(`${key.pk}|${key.sk}`, ref);
      }
      for (const item of await batchGet([...wanted.values()])) {
        const ref = refsByKey.get(`${String(item.pk)}|${String(item.sk)}`);
        if (ref) {
          const answer = toIdentityAnswer(item);
          if (answer) result.identities.set(identityRefKey(ref), answer);
        } else {
          const entry = toNumberEntry(item);
          if (entry) result.numbers.set(String(item.e164), entry);
        }
      }
      return result;
    },

    async claim(provider, e164, { claimant, untilMs, nowMs }) {
      const stamped = stampUpdate('LookupSignals');
      try {
        const out = await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: lookupSignalsKey(e164, provider),
            // The claim's item is deleted by the table a day after the claim ends if no answer replaces it;
            // an entry's own expiry comes back with its answer or with `release`.
            UpdateExpression: `SET ${stamped.set}, e164 = :e164, #provider = :provider, claim_by = :me, claim_until = :until, #ttl = :ttl`,
            ConditionExpression: 'attribute_not_exists(claim_until) OR claim_until < :now OR claim_by = :me',
            ExpressionAttributeNames: { ...stamped.names, '#provider': 'provider', '#ttl': 'ttl' },
            ExpressionAttributeValues: { ...stamped.values, ':e164': e164, ':provider': provider, ':me': claimant, ':until': untilMs, ':now': nowMs, ':ttl': Math.ceil(untilMs / 1000) + CLAIM_ITEM_GRACE_S },
            ReturnValues: 'ALL_OLD',
          }),
        );
        const old = out.Attributes;
        return { taken: true as const, entry: old ? toNumberEntry(old) : null, expiresAt: typeof old?.ttl === 'number' ? old.ttl : null };
      } catch (error) {
        if (isConditionFailed(error)) return { taken: false as const };
        throw error;
      }
    },

    async release(provider, e164, { claimant, expiresAt }) {
      try {
        await db().send(
          new UpdateCommand({
            TableName: tableName(),
            Key: lookupSignalsKey(e164, provider),
            UpdateExpression: expiresAt === null ? 'REMOVE claim_by, claim_until' : 'REMOVE claim_by, claim_until SET #ttl = :ttl',
            ConditionExpression: 'claim_by = :me',
            ExpressionAttributeNames: expiresAt === null ? undefined : { '#ttl': 'ttl' },
            ExpressionAttributeValues: { ':me': claimant, ...(expiresAt === null ? {} : { ':ttl': expiresAt }) },
          }),
        );
      } catch (error) {
        // Someone else holds it now (ours had ended): theirs to give back.
        if (!isConditionFailed(error)) throw error;
      }
    },

    async write(provider, writes: CacheWrite): Promise<void> {
      // One put per key: BatchWriteItem refuses a request naming a key twice.
      const items = new Map<string, Item>();
      for (const { e164, entry, expiresAt } of writes.numbers) {
        const key = lookupSignalsKey(e164, provider);
        items.set(`${key.pk}|${key.sk}`, {
          ...key,
          ...stamp('LookupSignals'),
          e164,
          provider,
          ...(entry.line ? { line: { line_type: entry.line.lineType, carrier: entry.line.carrier, call_screening: entry.line.callScreening, activity_score: entry.line.activityScore, ported: entry.line.ported, at: entry.line.at } } : {}),
          ...(entry.status ? { status: { line_status: entry.status.lineStatus, at: entry.status.at } } : {}),
          ttl: expiresAt,
        });
      }
      for (const { ref, answer, expiresAt } of writes.identities) {
        const key = lookupIdentityKey(ref, provider);
        items.set(`${key.pk}|${key.sk}`, {
          ...key,
          ...stamp('LookupIdentity'),
          e164: ref.e164,
          provider,
          scope: ref.scope,
          name_match_score: answer.nameMatchScore,
          name_match: answer.nameMatch,
          caller_name: answer.callerName,
          at: answer.at,
          ttl: expiresAt,
        });
      }
      await batchWrite([...items.values()]);
    },
  };
}
