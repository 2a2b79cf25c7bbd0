import { DeleteCommand, GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { forgetPrincipals } from './principal-cache';
import { conditionalWrite, db, getItems, setClause, queryItems, tableName, updateReturning, putItem, IF_NEW } from '../platform/table';
import { keyUseWrite } from './key-usage';
import * as z from '../platform/zod';
import { readEntity, readExisting } from '../platform/table-read';

// Organizations, users, memberships and API keys: everything authentication reads.

export type { Organization, User, ApiKeyRecord } from './identities';
import type { Organization, User, ApiKeyRecord } from './identities';

const orgKey = (id: string) => ({ pk: `ORG#${id}`, sk: 'META' });
const userKey = (id: string) => ({ pk: `USER#${id}`, sk: 'META' });
const memberKey = (orgId: string, userId: string) => ({ pk: `ORG#${orgId}`, sk: `MEMBER#${userId}` });
const apiKeyKey = (hash: string) => ({ pk: `APIKEY#${hash}`, sk: 'META' });

const organizationSchema: z.ZodMiniType<Organization> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  name: z.string(),
  subscription_active: z.boolean(),
  spam_included_numbers: z.nullable(z.number()),
  spam_addon_numbers: z.number(),
  created_at: z.string(),
}));
const userSchema: z.ZodMiniType<User> = z.lazySchema(() => z.looseObject({ id: z.string(), email: z.string(), created_at: z.string() }));
const apiKeySchema: z.ZodMiniType<ApiKeyRecord> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  created_by_user_id: z.string(),
  display_prefix: z.string(),
  key_hash: z.string(),
  scopes: z.array(z.string()),
  created_at: z.string(),
  expires_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
  name: z.optional(z.nullable(z.string())),
}));

export async function putOrganization(org: Organization): Promise<void> {
  await putItem('Organization', { ...orgKey(org.id), ...org }, IF_NEW);
}

export async function getOrganization(id: string): Promise<Organization | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: orgKey(id) }));
  return readEntity('Organization', organizationSchema, out.Item);
}

export async function updateOrganization(id: string, fields: Partial<Omit<Organization, 'id'>>): Promise<Organization> {
  const { sets, names, values } = setClause(fields);
  const item = await updateReturning({ Key: orgKey(id), UpdateExpression: `SET ${sets.join(', ')}`, ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: names, ExpressionAttributeValues: values });
  if (!item) throw new Error(`organization ${id} does not exist`);
  forgetPrincipals();
  return readExisting('Organization', organizationSchema, item);
}

export async function deleteOrganization(id: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: orgKey(id), ReturnValues: 'ALL_OLD' }));
  forgetPrincipals();
  return Boolean(out.Attributes);
}

export async function putUser(user: User): Promise<void> {
  await putItem('User', { ...userKey(user.id), ...user }, IF_NEW);
}

export async function getUser(id: string): Promise<User | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: userKey(id) }));
  return readEntity('User', userSchema, out.Item);
}

export async function deleteUser(id: string): Promise<boolean> {
  const out = await db().send(new DeleteCommand({ TableName: tableName(), Key: userKey(id), ReturnValues: 'ALL_OLD' }));
  forgetPrincipals();
  return Boolean(out.Attributes);
}

export async function putMembership(orgId: string, userId: string, role: 'owner' | 'member', at: string): Promise<void> {
  await putItem('Membership', {
    ...memberKey(orgId, userId),
    gsi1pk: `USER#${userId}#ORGS`,
    gsi1sk: orgId,
    organization_id: orgId,
    user_id: userId,
    role,
    created_at: at,
  });
}

export async function getMembership(orgId: string, userId: string): Promise<{ role: string } | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: memberKey(orgId, userId) }));
  return out.Item ? { role: String(out.Item.role) } : null;
}

export async function deleteMembership(orgId: string, userId: string): Promise<boolean> {
  const out = await db().send(
    new DeleteCommand({ TableName: tableName(), Key: memberKey(orgId, userId), ReturnValues: 'ALL_OLD' }),
  );
  return Boolean(out.Attributes);
}

export async function listMembershipsOfUser(userId: string): Promise<string[]> {
  const orgs: string[] = [];
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${userId}#ORGS` } })) {
    orgs.push(String(item.organization_id));
  }
  return orgs;
}

export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await putItem('ApiKey', {
    ...apiKeyKey(record.key_hash),
    gsi1pk: `ORG#${record.organization_id}#KEYS`,
    gsi1sk: `${record.created_at}#${record.id}`,
    gsi2pk: `APIKEYID#${record.id}`,
    gsi2sk: 'META',
    ...record,
  }, IF_NEW);
}

export async function getApiKeyByHash(hash: string): Promise<ApiKeyRecord | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(hash) }));
  return readEntity('ApiKey', apiKeySchema, out.Item);
}

/**
 * The key, read by the write that records its use (key-usage.ts): one call instead of a read and
 * a write. Null when that write's condition failed: no such key, revoked, expired, or its use was
 * recorded within the minute by another process (the caller then reads the key plainly).
 */
export async function readKeyRecordingUse(hash: string, now: number): Promise<ApiKeyRecord | null> {
  const use = keyUseWrite(now);
  const item = await updateReturning({ Key: apiKeyKey(hash), UpdateExpression: `SET ${use.set}`, ConditionExpression: use.condition, ExpressionAttributeValues: use.values });
  return item ? readEntity('ApiKey', apiKeySchema, item) : null;
}

/**
 * What a principal is made of, in one BatchGetItem: the user and the organization, and the key
 * too when its hash is given (a container that authenticated the key before knows the two ids,
 * which never change for a key).
 */
export async function readPrincipalItems(
  ids: { userId: string; organizationId: string; keyHash?: string },
): Promise<{ key: ApiKeyRecord | null; user: User | null; organization: Organization | null }> {
  const keys = [userKey(ids.userId), orgKey(ids.organizationId), ...(ids.keyHash === undefined ? [] : [apiKeyKey(ids.keyHash)])];
  const found = await getItems(keys);
  const item = (key: { pk: string; sk: string }) => found.get(`${key.pk}|${key.sk}`);
  return {
    key: ids.keyHash === undefined ? null : readEntity('ApiKey', apiKeySchema, item(apiKeyKey(ids.keyHash))),
    user: readEntity('User', userSchema, item(userKey(ids.userId))),
    organization: readEntity('Organization', organizationSchema, item(orgKey(ids.organizationId))),
  };
}

export async function getApiKeyById(id: string): Promise<ApiKeyRecord | null> {
  const out = await db().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: 'gsi2',
      KeyConditionExpression: 'gsi2pk = :pk',
      ExpressionAttributeValues: { ':pk': `APIKEYID#${id}` },
    }),
  );
  return readEntity('ApiKey', apiKeySchema, out.Items?.[0]);
}

export async function listApiKeys(orgId: string): Promise<ApiKeyRecord[]> {
  const items: ApiKeyRecord[] = [];
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${orgId}#KEYS` } })) {
    items.push(readExisting('ApiKey', apiKeySchema, item));
  }
  return items;
}

/** Revokes once; a second revoke keeps the first timestamp. */
export async function revokeApiKey(hash: string, at: string): Promise<void> {
  forgetPrincipals();
  // Already revoked: the first timestamp stays.
  await conditionalWrite(() =>
    db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: apiKeyKey(hash),
        UpdateExpression: 'SET revoked_at = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(revoked_at) OR revoked_at = :null)',
        ExpressionAttributeValues: { ':at': at, ':null': null },
      }),
    ),
  );
  // Again after the write: a request that read the key in between must not keep it cached.
  forgetPrincipals();
}
