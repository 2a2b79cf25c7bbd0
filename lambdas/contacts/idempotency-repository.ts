import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, isConditionFailed, tableName, putItem, IF_NEW } from '../platform/table';
import { sha256Hex } from '../platform/ids';
import * as z from '../platform/zod';
import { readEntity } from '../platform/table-read';

// idempotency_key → contact, scoped per (organization, API key). The key itself is hashed: it may
// be anything the client chose, up to 255 characters.

export interface IdempotencyClaim {
  contact_id: string;
  fingerprint: string;
  created_at: string;
}

const claimSchema: z.ZodMiniType<IdempotencyClaim> = z.looseObject({ contact_id: z.string(), fingerprint: z.string(), created_at: z.string() });

const claimKey = (orgId: string, apiKeyId: string, idempotencyKey: string) => ({
  pk: `IDEMP#${orgId}#${apiKeyId}#${sha256Hex(idempotencyKey)}`,
  sk: 'META',
});

/** Claims the key for a new contact, or returns the earlier claim. */
export async function claimIdempotencyKey(
  orgId: string,
  apiKeyId: string,
  idempotencyKey: string,
  claim: IdempotencyClaim,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyClaim | null }> {
  // A claim released between our refused write and our read (the other request was refused for
  // credits) is claimed again; one that keeps vanishing is reported as in progress (null).
  for (let attempt = 0; attempt < 3; attempt++) {
    const result = await claimOnce(orgId, apiKeyId, idempotencyKey, claim);
    if (result.claimed || result.existing) return result;
  }
  return { claimed: false, existing: null };
}

async function claimOnce(
  orgId: string,
  apiKeyId: string,
  idempotencyKey: string,
  claim: IdempotencyClaim,
): Promise<{ claimed: true } | { claimed: false; existing: IdempotencyClaim | null }> {
  try {
    await putItem('IdempotencyKey', { ...claimKey(orgId, apiKeyId, idempotencyKey), ...claim }, IF_NEW);
    return { claimed: true };
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
  }
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: claimKey(orgId, apiKeyId, idempotencyKey), ConsistentRead: true }));
  return { claimed: false, existing: readEntity('IdempotencyKey', claimSchema, out.Item) };
}

/** Frees the key when the request it guarded changed nothing (e.g. insufficient credits). */
export async function releaseIdempotencyKey(orgId: string, apiKeyId: string, idempotencyKey: string): Promise<void> {
  await db().send(new DeleteCommand({ TableName: tableName(), Key: claimKey(orgId, apiKeyId, idempotencyKey) }));
}
