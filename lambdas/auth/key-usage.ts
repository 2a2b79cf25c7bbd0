import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../platform/logger';
import { conditionalWrite, db, tableName } from '../platform/table';

/**
 * A key's `last_used_at` is coarse on purpose: at most one write per key per minute, so the API's
 * hot path stays one read (the key, then the 15 s principal cache). Each container remembers when
 * it last recorded a key; the write itself is conditional on the stored value being older than the
 * window, so many containers together still write about once a minute. A revoked or expired key's
 * use is never recorded.
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
 * True when a use of the key at `now` is due here, and from then on taken as recorded by this
 * process: the caller makes the write (recordKeyUse, or the key read that carries it,
 * identity-repository.ts `readKeyRecordingUse`).
 */
export function takeKeyUse(hash: string, now: number): boolean {
  if (!lastUseDue(hash, now)) return false;
  if (recorded.size >= MAX_TRACKED) recorded.delete(recorded.keys().next().value!);
  recorded.delete(hash);
  recorded.set(hash, now);
  return true;
}

/**
 * The condition and values of a use written at `now`: the key exists (a key deleted meanwhile is
 * not recreated as a fragment), is neither revoked nor expired, and its stored use is older than
 * the resolution.
 */
export function keyUseWrite(now: number): { set: string; condition: string; values: Record<string, unknown> } {
  return {
    set: 'last_used_at = :at',
    condition:
      'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null) AND (attribute_not_exists(expires_at) OR expires_at = :null OR expires_at > :at) AND (attribute_not_exists(last_used_at) OR last_used_at < :before)',
    values: { ':at': new Date(now).toISOString(), ':before': new Date(now - LAST_USED_RESOLUTION_MS).toISOString(), ':null': null },
  };
}

/**
 * Records a use of the key at `now` when one is due. Never fails authentication: a throttled or
 * failed write only leaves `last_used_at` a little older, so errors are logged and swallowed.
 */
export async function recordKeyUse(hash: string, now: number): Promise<void> {
  if (!takeKeyUse(hash, now)) return;
  const use = keyUseWrite(now);
  try {
    await conditionalWrite(() =>
      db().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `APIKEY#${hash}`, sk: 'META' },
          UpdateExpression: `SET ${use.set}`,
          ConditionExpression: use.condition,
          ExpressionAttributeValues: use.values,
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
