import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, countItems, db, isConditionFailed, setClause, queryItems, tableName, updateReturning, type Item, putItem, insertItem, IF_NEW, updateItem } from '../platform/table';
import * as z from '../platform/zod';
import { readEntity } from '../platform/table-read';
import { type Carrier, type CarrierTestStatus } from './carriers';
import { carrierSchema, testStatusSchema } from './test-run-fields';
import type { Challenge } from './verification-code';
import { stampUpdate } from '../platform/table-entities';
import { readBaseItem } from '../platform/index-claim';

// Monitored numbers and their guards (docs/data-model.md, patterns 24-27). No transactions: each
// write is one conditional item operation, ordered so a failure can be compensated.

export interface CarrierStatusRecord {
  carrier: Carrier;
  status: CarrierTestStatus;
  spam_detected: boolean | null;
  spam_label: string | null;
  test_run_id: string | null;
  tested_at: string;
  captured_at: string | null;
  screenshot_key: string | null;
  screenshot_content_type: string | null;
  same_carrier_warning: boolean;
  simulated: boolean;
}

export interface NumberRecord {
  id: string;
  organization_id: string;
  phone_number: string;
  region: 'US' | 'CA';
  line_type: string;
  sms_capable: boolean;
  verified: boolean;
  verified_at: string | null;
  carrier: Carrier | null;
  created_at: string;
  updated_at: string | null;
  verification: Challenge | null;
  carrier_statuses: Partial<Record<Carrier, CarrierStatusRecord>>;
  /** Whether the carrier's last completed test flagged the number (edge trigger state). */
  spam_state: Partial<Record<Carrier, boolean>>;
  /**
   * The number holds its slot by name on the counter (`slot_<id>`), so that releasing it is
   * idempotent and an orphan findable. Absent on numbers added before 2026-11-25: their slot is
   * only part of the count.
   */
  slot_reserved?: boolean;
  /** When a delete of the number began (epoch ms): one delete at a time holds its slot again. */
  deleting_at?: number;
}

const numberKey = (id: string) => ({ pk: `SPAMNUM#${id}`, sk: 'META' });
export const numberItemKey = numberKey;
const guardKey = (orgId: string, e164: string) => ({ pk: `SPAMPHONE#${orgId}#${e164}`, sk: 'META' });
const counterKey = (orgId: string) => ({ pk: `ORG#${orgId}`, sk: 'SPAMNUMS#COUNT' });
const COUNT_STAMP = stampUpdate('SpamNumberCount');
const orgIndexKey = (orgId: string) => `ORG#${orgId}#SPAMNUMS`;
export const VERIFIED_INDEX_PK = 'SPAMNUM#VERIFIED';

const carrier = carrierSchema;
const testStatus = testStatusSchema;
const carrierStatusSchema: z.ZodMiniType<CarrierStatusRecord> = z.lazySchema(() => z.looseObject({
  carrier,
  status: testStatus,
  spam_detected: z.nullable(z.boolean()),
  spam_label: z.nullable(z.string()),
  test_run_id: z.nullable(z.string()),
  tested_at: z.string(),
  captured_at: z.nullable(z.string()),
  screenshot_key: z.nullable(z.string()),
  screenshot_content_type: z.nullable(z.string()),
  same_carrier_warning: z.boolean(),
  simulated: z.boolean(),
}));
const challengeSchema: z.ZodMiniType<Challenge> = z.lazySchema(() => z.looseObject({
  method: z.enum(['call', 'sms']),
  salt: z.string(),
  code_hash: z.string(),
  expires_at: z.number(),
  attempts: z.number(),
  last_sent_at: z.nullable(z.number()),
  sends: z.array(z.number()),
}));
const numberSchema: z.ZodMiniType<NumberRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  phone_number: z.string(),
  region: z.enum(['US', 'CA']),
  line_type: z.string(),
  sms_capable: z.boolean(),
  verified: z.boolean(),
  verified_at: z.nullable(z.string()),
  carrier: z.nullable(carrier),
  created_at: z.string(),
  updated_at: z.nullable(z.string()),
  verification: z.nullable(challengeSchema),
  carrier_statuses: z.partialRecord(carrier, carrierStatusSchema),
  spam_state: z.partialRecord(carrier, z.boolean()),
}));

const toRecord = (item: Item | undefined): NumberRecord | null => readEntity('MonitoredNumber', numberSchema, item);

/** Claims a phone number for an organization; false when it is already monitored there (409). */
export async function claimPhone(orgId: string, e164: string, numberId: string): Promise<boolean> {
  return insertItem('SpamPhoneGuard', { ...guardKey(orgId, e164), organization_id: orgId, number_id: numberId });
}

/** Whether a number of the organization holds this phone. */
export async function phoneClaimed(orgId: string, e164: string): Promise<boolean> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: guardKey(orgId, e164), ConsistentRead: true }));
  return out.Item !== undefined;
}

export async function releasePhone(orgId: string, e164: string, numberId: string): Promise<void> {
  // The guard now belongs to another number (re-added since): leave it.
  await conditionalWrite(() =>
    db().send(
      new DeleteCommand({ TableName: tableName(), Key: guardKey(orgId, e164), ConditionExpression: 'number_id = :id', ExpressionAttributeValues: { ':id': numberId } }),
    ),
  );
}

/** A slot change (an add, a delete) not finished by then is recovery's (lambdas/spam/slot-recovery.ts). */
export const SLOT_CHANGE_BOUND_MS = 5 * 60_000;
const SLOT_RECOVERY_PK = 'RECOVER#SpamNumberCount';
const slotAttribute = (numberId: string) => `slot_${numberId}`;
const watchKey = (orgId: string, atMs: number) => `${new Date(atMs + SLOT_CHANGE_BOUND_MS).toISOString()}#${orgId}`;

export interface HeldSlot {
  numberId: string;
  phone: string;
  /** When the slot was reserved (epoch ms). */
  at: number;
}

/**
 * The counter item cannot take another slot: DynamoDB's 400 KB item limit, at about 5,600 slots,
 * reached only by counters whose slots were kept before slots were settled (docs/spam-monitoring.md).
 */
export class SlotCounterFull extends Error {
  override name = 'SlotCounterFull';
}

/**
 * Takes one slot of the organization's limit for `numberId`, by name, and lists the counter for
 * recovery (gsi3) until the change is known finished; false when the limit is reached (403);
 * SlotCounterFull when the counter item is full.
 */
export async function reserveSlotFor(orgId: string, limit: number | null, slot: HeldSlot): Promise<boolean> {
  return updateItem({
    Key: counterKey(orgId),
    UpdateExpression: `SET #slot = :slot, gsi3pk = :rpk, gsi3sk = :rsk, ${COUNT_STAMP.set} ADD #count :one`,
    ConditionExpression: `attribute_not_exists(#slot)${limit === null ? '' : ' AND (attribute_not_exists(#count) OR #count < :limit)'}`,
    ExpressionAttributeNames: { '#count': 'count', '#slot': slotAttribute(slot.numberId), ...COUNT_STAMP.names },
    ExpressionAttributeValues: {
      ':one': 1,
      ':slot': { phone: slot.phone, at: slot.at },
      ':rpk': SLOT_RECOVERY_PK,
      ':rsk': watchKey(orgId, slot.at),
      ...COUNT_STAMP.values,
      ...(limit === null ? {} : { ':limit': limit }),
    },
  }).catch((error: unknown) => {
    if (error instanceof Error && error.name === 'ValidationException' && /item size/i.test(error.message)) throw new SlotCounterFull(error.message);
    throw error;
  });
}

/**
 * Once the number is written it holds its slot itself: the slot leaves the counter (the count
 * stays), so the counter does not grow with the numbers monitored. Unless a delete stamped the slot
 * since (`at` differs): the delete then gives it back.
 */
export async function settleSlot(orgId: string, numberId: string, at: number): Promise<boolean> {
  return updateItem({
    Key: counterKey(orgId),
    UpdateExpression: 'REMOVE #slot',
    ConditionExpression: '#slot.#at = :at',
    ExpressionAttributeNames: { '#slot': slotAttribute(numberId), '#at': 'at' },
    ExpressionAttributeValues: { ':at': at },
  });
}

/**
 * A delete puts the number's slot back on the counter, stamped with the delete's time, and lists the
 * counter for recovery before the number goes, so a crash part-way is found (settled numbers hold
 * no slot there; numbers added before this have theirs, and it is restamped).
 */
export async function holdSlotAgain(orgId: string, slot: HeldSlot): Promise<void> {
  await updateItem({
    Key: counterKey(orgId),
    UpdateExpression: 'SET #slot = :slot, gsi3pk = :rpk, gsi3sk = :rsk',
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#slot': slotAttribute(slot.numberId) },
    ExpressionAttributeValues: { ':slot': { phone: slot.phone, at: slot.at }, ':rpk': SLOT_RECOVERY_PK, ':rsk': watchKey(orgId, slot.at) },
  });
}

/**
 * Gives back the slot `numberId` holds on the counter: exactly once, however often it is called;
 * with `at`, only the slot stamped then (recovery, which read it).
 */
export async function releaseSlotOf(orgId: string, numberId: string, at?: number): Promise<boolean> {
  return updateItem({
    Key: counterKey(orgId),
    UpdateExpression: 'REMOVE #slot ADD #count :minus',
    ConditionExpression: at === undefined ? 'attribute_exists(#slot)' : '#slot.#at = :at',
    ExpressionAttributeNames: { '#slot': slotAttribute(numberId), '#count': 'count', ...(at === undefined ? {} : { '#at': 'at' }) },
    ExpressionAttributeValues: { ':minus': -1, ...(at === undefined ? {} : { ':at': at }) },
  });
}

/** Counters whose last slot change began before `beforeMs`, with the slots they hold and the mark seen. */
export async function* watchedCounters(beforeMs: number): AsyncGenerator<{ orgId: string; slots: HeldSlot[]; mark: string }> {
  // Marks are `<change time + bound>#<org>`: every mark of a change that began before `beforeMs` sorts below this.
  const query = { IndexName: 'gsi3', KeyConditionExpression: 'gsi3pk = :pk AND gsi3sk < :before', ExpressionAttributeValues: { ':pk': SLOT_RECOVERY_PK, ':before': watchKey('', beforeMs) } };
  for await (const copy of queryItems(query)) {
    // The index copy only names the counter: its slots and mark are read from the counter itself
    // (strongly consistent), so the unwatch below conditions on the item's mark, not a lagging copy.
    const item = await readBaseItem({ pk: String(copy.pk), sk: String(copy.sk) });
    if (!item || item.gsi3pk !== SLOT_RECOVERY_PK || String(item.gsi3sk) >= watchKey('', beforeMs)) continue;
    const orgId = String(item.pk).slice('ORG#'.length);
    const slots: HeldSlot[] = [];
    for (const [name, value] of Object.entries(item)) {
      if (!name.startsWith('slot_')) continue;
      const held = value as { phone: string; at: number };
      slots.push({ numberId: name.slice('slot_'.length), phone: held.phone, at: Number(held.at) });
    }
    yield { orgId, slots, mark: String(item.gsi3sk) };
  }
}

/** Takes the counter off the recovery list, unless another slot change began since `mark` was read. */
export async function unwatchSlots(orgId: string, mark: string): Promise<void> {
  await updateItem({
    Key: counterKey(orgId),
    UpdateExpression: 'REMOVE gsi3pk, gsi3sk',
    ConditionExpression: 'gsi3sk = :mark',
    ExpressionAttributeValues: { ':mark': mark },
  });
}

/** A slot of a number added before slots were held by name: only the count knows it. */
export async function releaseSlot(orgId: string): Promise<void> {
  await updateItem({
    Key: counterKey(orgId),
    UpdateExpression: 'ADD #count :minus',
    ConditionExpression: '#count > :zero',
    ExpressionAttributeNames: { '#count': 'count' },
    ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
  });
}

export async function putNumber(record: NumberRecord): Promise<void> {
  await putItem('MonitoredNumber', { ...numberKey(record.id), gsi1pk: orgIndexKey(record.organization_id), gsi1sk: orgOrderKey(record), ...record }, IF_NEW);
}

export async function getNumber(id: string): Promise<NumberRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: numberKey(id), ConsistentRead: true }));
  return toRecord(out.Item);
}

/** The organization's numbers, oldest first (created_at, then id): the order the limit applies in. */
export async function listOrgNumbers(orgId: string, max?: number): Promise<NumberRecord[]> {
  const items: NumberRecord[] = [];
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': orgIndexKey(orgId) } }, max)) {
    items.push(toRecord(item)!);
  }
  return items;
}

/** Where a number sorts among its organization's (created_at, then id): the order the limit applies in. */
export const orgOrderKey = (n: Pick<NumberRecord, 'id' | 'created_at'>) => `${n.created_at}#${n.id}`;

/**
 * How many numbers the organization has (before `before` in its order, when given), counting no
 * further than `max`: a count the table makes, without sending the items.
 */
export function countOrgNumbers(orgId: string, options: { before?: string; max?: number } = {}): Promise<number> {
  return countItems(
    {
      IndexName: 'gsi1',
      KeyConditionExpression: options.before === undefined ? 'gsi1pk = :pk' : 'gsi1pk = :pk AND gsi1sk < :before',
      ExpressionAttributeValues: { ':pk': orgIndexKey(orgId), ...(options.before === undefined ? {} : { ':before': options.before }) },
    },
    options.max,
  );
}

/** Every verified number of every organization (the daily run's work list), page by page. */
export async function* verifiedNumbers(): AsyncGenerator<NumberRecord> {
  for await (const item of queryItems({ IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': VERIFIED_INDEX_PK } })) {
    yield toRecord(item)!;
  }
}

/**
 * Stores a new challenge if the previous one is still the one the caller saw (so two parallel
 * resends cannot both send) and the number is still unverified.
 */
export async function replaceChallenge(id: string, expectedSalt: string | null, challenge: Challenge, at: string): Promise<boolean> {
  return updateItem({
    Key: numberKey(id),
    UpdateExpression: 'SET verification = :c, updated_at = :at',
    ConditionExpression:
      expectedSalt === null
        ? 'attribute_exists(pk) AND verified = :false AND (attribute_not_exists(verification) OR verification = :null)'
        : 'attribute_exists(pk) AND verified = :false AND verification.salt = :salt',
    ExpressionAttributeValues: { ':c': challenge, ':at': at, ':false': false, ...(expectedSalt === null ? { ':null': null } : { ':salt': expectedSalt }) },
  });
}

/** A send that failed does not count towards the resend cooldown. */
export async function markChallengeUnsent(id: string, salt: string): Promise<void> {
  await updateItem({
    Key: numberKey(id),
    UpdateExpression: 'SET verification.last_sent_at = :null',
    ConditionExpression: 'verification.salt = :salt',
    ExpressionAttributeValues: { ':null': null, ':salt': salt },
  });
}

/**
 * Counts one guess against the challenge before it is checked, so parallel guesses cannot exceed
 * the bound: the guesses counted with this one, or null when the challenge changed or is used up.
 */
export async function countAttempt(id: string, salt: string, maxAttempts: number): Promise<number | null> {
  const item = await updateReturning({
    Key: numberKey(id),
    UpdateExpression: 'SET verification.attempts = verification.attempts + :one',
    ConditionExpression: 'verified = :false AND verification.salt = :salt AND verification.attempts < :max',
    ExpressionAttributeValues: { ':one': 1, ':false': false, ':salt': salt, ':max': maxAttempts },
  });
  return item ? Number((item.verification as { attempts: number }).attempts) : null;
}

/** Marks the number verified and puts it on the daily run's index; false if it already was. */
/** `outbox`: the number.verified event, written with the change (webhooks/outbox.ts). */
export async function markVerified(id: string, salt: string, at: string, createdAt: string, outbox: Record<string, unknown> = {}): Promise<NumberRecord | null> {
  const extra = setClause(outbox);
  const item = await updateReturning({
    Key: numberKey(id),
    UpdateExpression: ['SET verified = :true, verified_at = :at, updated_at = :at, verification = :null, gsi2pk = :g2pk, gsi2sk = :g2sk', ...extra.sets].join(', '),
    ConditionExpression: 'verified = :false AND verification.salt = :salt',
    ...(extra.sets.length ? { ExpressionAttributeNames: extra.names } : {}),
    ExpressionAttributeValues: { ':true': true, ':false': false, ':at': at, ':null': null, ':salt': salt, ':g2pk': VERIFIED_INDEX_PK, ':g2sk': `${createdAt}#${id}`, ...extra.values },
  });
  return item && toRecord(item);
}

/**
 * Records a carrier's latest status on the number. With `spamFlag` set (a completed test), also
 * updates the edge-trigger state and returns what it was before, atomically, so of two concurrent
 * writers only one sees the clean → spam change. Null when the number was deleted meanwhile.
 */
export async function setCarrierStatus(
  id: string,
  status: CarrierStatusRecord,
  at: string,
  extra: { spamFlag?: boolean; ownCarrier?: Carrier | null; onSpamEdge?: Record<string, unknown> } = {},
): Promise<{ previousFlag: boolean | undefined } | null> {
  // A clean → spam change writes its spam.detected event (the outbox) in the same write, guarded by
  // the previous flag; when the guard fails it was no edge, and the plain write follows.
  if (extra.spamFlag === true && extra.onSpamEdge) {
    const edge = await writeCarrierStatus(id, status, at, extra, extra.onSpamEdge);
    if (edge !== 'not-an-edge') return edge;
  }
  const plain = await writeCarrierStatus(id, status, at, extra, null);
  return plain === 'not-an-edge' ? null : plain;
}

async function writeCarrierStatus(
  id: string,
  status: CarrierStatusRecord,
  at: string,
  extra: { spamFlag?: boolean; ownCarrier?: Carrier | null },
  edgeOutbox: Record<string, unknown> | null,
): Promise<{ previousFlag: boolean | undefined } | null | 'not-an-edge'> {
  const sets = ['carrier_statuses.#c = :status', 'updated_at = :at'];
  const values: Item = { ':status': status, ':at': at };
  if (extra.spamFlag !== undefined) {
    sets.push('spam_state.#c = :flag');
    values[':flag'] = extra.spamFlag;
  }
  if (extra.ownCarrier) {
    sets.push('carrier = :own');
    values[':own'] = extra.ownCarrier;
  }
  const names: Record<string, string> = { '#c': status.carrier };
  let condition = 'attribute_exists(pk)';
  if (edgeOutbox) {
    const clause = setClause(edgeOutbox);
    sets.push(...clause.sets);
    Object.assign(names, clause.names);
    Object.assign(values, clause.values, { ':flagged': true });
    condition += ' AND (attribute_not_exists(spam_state.#c) OR spam_state.#c <> :flagged)';
  }
  try {
    const out = await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: numberKey(id),
        UpdateExpression: `SET ${sets.join(', ')}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
        ReturnValues: 'ALL_OLD',
      }),
    );
    const old = toRecord(out.Attributes);
    return { previousFlag: old?.spam_state?.[status.carrier] };
  } catch (error) {
    if (isConditionFailed(error)) return edgeOutbox ? 'not-an-edge' : null;
    throw error;
  }
}

/**
 * Marks a delete of the number begun at `at`: false when it is gone, or another delete began after
 * `staleBefore` (one still under way; an older one is taken over, as recovery would).
 */
export async function markDeleting(id: string, at: number, staleBefore: number): Promise<boolean> {
  return updateItem({
    Key: numberKey(id),
    UpdateExpression: 'SET deleting_at = :at',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(deleting_at) OR deleting_at < :stale)',
    ExpressionAttributeValues: { ':at': at, ':stale': staleBefore },
  });
}

/** Deletes the number if the delete begun at `deletingAt` still owns it; its record, or null. */
export async function deleteNumberItem(id: string, deletingAt: number): Promise<NumberRecord | null> {
  try {
    const out = await db().send(
      new DeleteCommand({ TableName: tableName(), Key: numberKey(id), ConditionExpression: 'deleting_at = :at', ExpressionAttributeValues: { ':at': deletingAt }, ReturnValues: 'ALL_OLD' }),
    );
    return toRecord(out.Attributes);
  } catch (error) {
    if (isConditionFailed(error)) return null;
    throw error;
  }
}
