import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../platform/logger';
import { conditionalWrite, db, tableName } from '../platform/table';

/**
 * A key's `last_used_at` is coarse on purpose: at most one write per key per minute, so the API's
 * hot path stays one read (the key, then the 15 s principal cache). Each container remembers when
 * it last recorded a key; the write itself is conditional on the stored value being older than the
 * window, so many containers together still write about once a minute.
 */
export const LAST_USED_RESOLUTION_MS = 60_000;
const MAX_TRACKED = 1_000;

/** By key hash: when this process last recorded (or found recorded) a use. */
const recorded = new Map<string, number>();

/** True when this process has not recorded a use of the key within the resolution. */
export function lastUseDue(hash: string, now: number): boolean {
  const at = recorded.get(hash);
  return at === undefined || now - at >= LAST_USED_RESOLUTION_MS || now < at;
}

/**
 * Records a use of the key at `now`. Never fails authentication: a throttled or failed write only
 * leaves `last_used_at` a little older, so errors are logged and swallowed.
 */
export async function recordKeyUse(hash: string, now: number): Promise<void> {
  if (!lastUseDue(hash, now)) return;
  if (recorded.size >= MAX_TRACKED) recorded.delete(recorded.keys().next().value!);
  recorded.delete(hash);
  recorded.set(hash, now);
  const at = new Date(now).toISOString();
  const before = new Date(now - LAST_USED_RESOLUTION_MS).toISOString();
  try {
    await conditionalWrite(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `APIKEY#${hash}`, sk: 'META' },
          UpdateExpression: 'SET last_used_at = :at',
          // attribute_exists: a key deleted meanwhile is not recreated as a fragment.
          ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(last_used_at) OR last_used_at < :before)',
          ExpressionAttributeValues: { ':at': at, ':before': before },
        }),
      ),
    );
  } catch (error) {
    logger.warn('could not record the API key use', { error: error as Error });
  }
}

/** Forget what this process recorded (tests). */
export function forgetKeyUses(): void {
  recorded.clear();
}
