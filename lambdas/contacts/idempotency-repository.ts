import { DeleteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { conditionalWrite, db, isConditionFailed, tableName, putItem, IF_NEW, type Item } from '../platform/table';
import { sha256Hex } from '../platform/ids';
import * as z from '../platform/zod';
import { readEntity } from '../platform/table-read';
import { fromJsonText, toJsonText } from '../platform/json-text';
import { claimStale } from '../platform/index-claim';
import type { ContactRecord } from './contact';

// idempotency_key → contact, scoped per (organization, API key). The key itself is hashed: it may
// be anything the client chose, up to 255 characters. While its contact is being created the
// claim is the create's durable record (`creating`, holding the contact as it will be written,
// listed for recovery in gsi3): a create that dies after its charge is finished from it. Once the
// contact is written the claim is `done` and holds only the mapping.

export interface IdempotencyClaim {
  contact_id: string;
  fingerprint: string;
  created_at: string;
  /** Absent on claims written before claims carried their create (read as done). */
  status?: 'creating' | 'done';
}

const claimSchema: z.ZodMiniType<IdempotencyClaim> = z.lazySchema(() => z.looseObject({
  contact_id: z.string(),
  fingerprint: z.string(),
  created_at: z.string(),
  status: z.optional(z.enum(['creating', 'done'])),
}));

/** The partition key of a claim (recovery and a retry finish a create by it). */
export const claimPk = (orgId: string, apiKeyId: string, idempotencyKey: string): string => `IDEMP#${orgId}#${apiKeyId}#${sha256Hex(idempotencyKey)}`;
const claimKey = (orgId: string, apiKeyId: string, idempotencyKey: string) => ({ pk: claimPk(orgId, apiKeyId, idempotencyKey), sk: 'META' });

/** Claims of creates in progress, by the time they become stale (gsi3, sparse). */
const RECOVERY_PK = 'RECOVER#ContactCreate';

/**
 * Claims the key for a new contact (the claim holds `draft`, the contact as it will be written,
 * until the contact is), or returns the earlier claim.
 */
export async function claimIdempotencyKey(
  orgId: string,
  apiKeyId: string,
  idempotencyKey: string,
  claim: IdempotencyClaim,
  draft: ContactRecord,
  staleAt: string,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyClaim | null }> {
  // A claim released between our refused write and our read (the other request was refused for
  // credits) is claimed again; one that keeps vanishing is reported as in progress (null).
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await claimOnce(claimKey(orgId, apiKeyId, idempotencyKey), creatingItem(claim, draft, staleAt, false));
    if (result.claimed || result.existing) return result;
  }
  return { claimed: false, existing: null };
}

/**
 * A claim no client can name (`IDEMP#<org>#implicit#<contact id>`), for a create that must be
 * finished rather than given back if it is cut short after its charge (a max contact: its place in
 * the batch must not become a hole). Deleted once its contact is written.
 */
export const implicitClaimPk = (orgId: string, contactId: string): string => `IDEMP#${orgId}#implicit#${contactId}`;

/** Writes the implicit claim of a new contact id (never taken before: the id is new). */
export async function claimImplicitly(draft: ContactRecord, staleAt: string): Promise<void> {
  const claim = { contact_id: draft.id, fingerprint: 'implicit', created_at: draft.created_at };
  await putItem('IdempotencyKey', { pk: implicitClaimPk(draft.organization_id, draft.id), sk: 'META', ...creatingItem(claim, draft, staleAt, true) }, IF_NEW);
}

function creatingItem(claim: IdempotencyClaim, draft: ContactRecord, staleAt: string, implicit: boolean): Item {
  return { ...claim, status: 'creating', ...(implicit ? { implicit: true } : {}), draft: toJsonText(draft), gsi3pk: RECOVERY_PK, gsi3sk: `${staleAt}#${claim.contact_id}` };
}

async function claimOnce(key: { pk: string; sk: string }, item: Item): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyClaim | null }> {
  try {
    await putItem('IdempotencyKey', { ...key, ...item }, IF_NEW);
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return { claimed: false, existing: readEntity('IdempotencyKey', claimSchema, out.Item) };
}

/** The claim's create is done: an idempotency key's claim keeps only its mapping; an implicit one goes. */
export async function endClaim(pk: string, contactId: string, implicit: boolean): Promise<void> {
  if (!implicit) return finishClaim(pk, contactId);
  await writeOwnClaim(pk, contactId, {});
}

/** The claim under `pk` is done (its contact is written): the draft and the recovery entry go. */
async function finishClaim(pk: string, contactId: string): Promise<void> {
  await writeOwnClaim(pk, contactId, { update: 'SET #status = :done REMOVE draft, gsi3pk, gsi3sk', names: { '#status': 'status' }, values: { ':done': 'done' } });
}

/** Frees the key when the request it guarded changed nothing (e.g. insufficient credits). */
export async function releaseIdempotencyKey(orgId: string, apiKeyId: string, idempotencyKey: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: claimKey(orgId, apiKeyId, idempotencyKey) }));
}

/** Frees a claim recovery found uncharged: only while it is still that create's, still creating. */
export async function releaseStaleClaim(pk: string, contactId: string): Promise<boolean> {
  return writeOwnClaim(pk, contactId, { also: '#status = :creating', names: { '#status': 'status' }, values: { ':creating': 'creating' } });
}

/**
 * One write to the claim under `pk`, applied only while the claim is still `contactId`'s create
 * (and `also` holds): with `update` an update, without one a delete. False when it is not.
 */
function writeOwnClaim(
  pk: string,
  contactId: string,
  write: { update?: string; also?: string; names?: Record<string, string>; values?: Record<string, unknown> },
): Promise<boolean> {
  const target = {
    TableName: tableName(),
    Key: { pk, sk: 'META' },
    ConditionExpression: write.also === undefined ? 'contact_id = :id' : `contact_id = :id AND ${write.also}`,
    ...(write.names === undefined ? {} : { ExpressionAttributeNames: write.names }),
    ExpressionAttributeValues: { ...write.values, ':id': contactId },
  };
  return conditionalWrite(() => db().send(write.update === undefined ? new DeleteCommand(target) : new UpdateCommand({ ...target, UpdateExpression: write.update })));
}

/** A create in progress found by recovery: its claim's key and the contact it will write. */
export interface StaleCreate {
  pk: string;
  draft: ContactRecord;
  implicit: boolean;
}

/**
 * Claims of creates left `creating` past their stale time (or, with `createdBeforeIso`, created
 * before it), each taken for one recovery worker by moving its stale time `leaseMs` ahead.
 */
export function claimStaleCreates(nowMs: number, leaseMs: number, createdBeforeIso?: string): Promise<StaleCreate[]> {
  return claimStale({ index: 'gsi3', partition: RECOVERY_PK, nowMs, leaseMs, changed: 'created_at', before: createdBeforeIso, max: 200 }, {
    keyOf: (item) => ({ key: { pk: String(item.pk), sk: 'META' }, id: String(item.contact_id) }),
    qualifies: (current) => current.status === 'creating',
    also: { expression: '#status = :creating', names: { '#status': 'status' }, values: { ':creating': 'creating' } },
    read: (base) => (typeof base.draft === 'string' ? { pk: String(base.pk), draft: fromJsonText<ContactRecord>(base.draft), implicit: base.implicit === true } : null),
  });
}
