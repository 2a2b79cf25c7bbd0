import { nowIso, nowMs } from '../platform/clock';
import { newId } from '../platform/ids';
import { InvalidInput } from '../platform/domain-errors';
import { SCOPES, displayPrefix, generateApiKey, hashApiKey } from '../auth/api-key';
import {
  deleteMembership,
  deleteOrganization as deleteOrgItem,
  deleteUser as deleteUserItem,
  getApiKeyById,
  getMembership,
  getOrganization,
  getUser,
  listApiKeys,
  putApiKey,
  putMembership,
  putOrganization,
  putUser,
  revokeApiKey,
  updateOrganization,
  type ApiKeyRecord,
  type Organization,
  type User,
} from '../auth/identity-repository';
import { addPurchased, configureSubscription, ensureBalance, getBalance, MAX_CREDITS, type Balance } from '../credits/credits';
import { normalizeUsCaOnDemand } from '../spam/phone';
import { readSimulatedMessages, type SimulatedMessage } from '../spam/telephony/simulator';
import { runDailySpamTests, type RunSummary } from '../spam/daily-run';
import { runContactPool, type PoolRunSummary } from '../contacts/pool-job';
import type { Ports } from '../composition/ports';
import { uploadsCreatedSince } from '../uploads/upload-repository';
import { normalizeKeyName } from './key-name';

// Operator actions (the admin CLI and the local runtime's first-start seed). The in-app developer
// panel of the spec is out of scope for this service; these functions are its back end.

/** An operator action refused: invalid input in the domain-error table (400 wherever HTTP carries it). */
export class AdminError extends InvalidInput {}

/**
 * The subscription pool is topped up by the allocation each period and capped: a cap below the
 * allocation would take away part of every allocation it grants, so it is refused.
 */
export function assertCapCoversAllocation(monthly: number, cap: number | null): void {
  if (cap !== null && cap < monthly) {
    throw new AdminError(`cap ${cap} is below the monthly allocation ${monthly}: each period's top-up would be cut to the cap; give a cap of at least ${monthly}, or none`);
  }
}

/** An expiry for a new key: ISO date or Unix seconds, and in the future (an expired key could never be used). */
export function parseKeyExpiry(expiresAt: string, now: number): string {
  const ms = /^\d+$/.test(expiresAt) ? Number(expiresAt) * 1000 : Date.parse(expiresAt);
  if (!Number.isFinite(ms)) throw new AdminError(`expires_at '${expiresAt}' is neither an ISO date nor Unix seconds`);
  const expires = new Date(ms).toISOString();
  if (ms <= now) throw new AdminError(`expires_at ${expires} is not in the future: the key would be expired before its first use`);
  return expires;
}

export async function createOrganization(input: { name: string; subscriptionActive?: boolean; credits?: number; monthlyAllocation?: number; cap?: number | null }): Promise<Organization> {
  if (!input.name.trim()) throw new AdminError('organization name must not be empty');
  if (input.cap !== undefined) assertCapCoversAllocation(input.monthlyAllocation ?? 0, input.cap);
  const org: Organization = {
    id: newId(),
    name: input.name.trim(),
    subscription_active: input.subscriptionActive ?? false,
    spam_included_numbers: 5,
    spam_addon_numbers: 0,
    created_at: nowIso(),
  };
  await putOrganization(org);
  await ensureBalance(org.id, {
    subscription: input.monthlyAllocation ?? 0,
    monthly_allocation: input.monthlyAllocation ?? 0,
    subscription_cap: input.cap ?? input.monthlyAllocation ?? null,
  });
  if (input.credits) await addPurchased(org.id, input.credits, 'initial credits');
  return org;
}

export async function createUser(email: string): Promise<User> {
  if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new AdminError(`'${email}' is not an email address`);
  const user: User = { id: newId(), email, created_at: nowIso() };
  await putUser(user);
  return user;
}

export async function addMember(orgId: string, userId: string, role: 'owner' | 'member' = 'member'): Promise<void> {
  await requireOrg(orgId);
  await requireUser(userId);
  await putMembership(orgId, userId, role, nowIso());
}

/** Spec, Authentication 7: a user leaving an organization revokes every key they minted for it. */
export async function removeMember(orgId: string, userId: string): Promise<{ revokedKeys: number }> {
  await requireOrg(orgId);
  if (!(await deleteMembership(orgId, userId))) throw new AdminError(`user ${userId} is not a member of organization ${orgId}`);
  let revoked = 0;
  for (const key of await listApiKeys(orgId)) {
    if (key.created_by_user_id === userId && !key.revoked_at) {
      await revokeApiKey(key.key_hash, nowIso());
      revoked++;
    }
  }
  return { revokedKeys: revoked };
}

export async function deleteUser(userId: string): Promise<void> {
  if (!(await deleteUserItem(userId))) throw new AdminError(`user ${userId} does not exist`);
}

export async function deleteOrganization(orgId: string): Promise<void> {
  if (!(await deleteOrgItem(orgId))) throw new AdminError(`organization ${orgId} does not exist`);
}

export interface MintedKey {
  key: string;
  record: Omit<ApiKeyRecord, 'key_hash'>;
}

/** Keys are minted by an organization owner (spec, Authentication 4). The full key is returned once. */
export async function mintKey(orgId: string, userId: string, expiresAt?: string, name?: string | null): Promise<MintedKey> {
  let keyName: string | null;
  try {
    keyName = normalizeKeyName(name);
  } catch (error) {
    throw error instanceof InvalidInput ? new AdminError(error.detail) : error;
  }
  await requireOrg(orgId);
  await requireUser(userId);
  const membership = await getMembership(orgId, userId);
  if (!membership) throw new AdminError(`user ${userId} is not a member of organization ${orgId}`);
  if (membership.role !== 'owner') throw new AdminError(`only an owner of organization ${orgId} can mint keys`);
  const expires = expiresAt === undefined ? null : parseKeyExpiry(expiresAt, nowMs());
  const key = generateApiKey();
  const record: ApiKeyRecord = {
    id: newId(),
    organization_id: orgId,
    created_by_user_id: userId,
    display_prefix: displayPrefix(key),
    key_hash: hashApiKey(key),
    scopes: [...SCOPES],
    created_at: nowIso(),
    expires_at: expires,
    revoked_at: null,
    name: keyName,
  };
  await putApiKey(record);
  const { key_hash: _hash, ...visible } = record;
  return { key, record: visible };
}

export async function revokeKey(keyId: string): Promise<void> {
  const record = await getApiKeyById(keyId);
  if (!record) throw new AdminError(`API key ${keyId} does not exist`);
  await revokeApiKey(record.key_hash, nowIso());
}

export async function listKeys(orgId: string): Promise<Omit<ApiKeyRecord, 'key_hash'>[]> {
  await requireOrg(orgId);
  return (await listApiKeys(orgId)).map(({ key_hash: _hash, ...rest }) => rest);
}

export async function setSubscription(orgId: string, active: boolean): Promise<Organization> {
  await requireOrg(orgId);
  return updateOrganization(orgId, { subscription_active: active });
}

export async function setAllocation(orgId: string, monthly: number, cap: number | null): Promise<void> {
  await requireOrg(orgId);
  if (!Number.isInteger(monthly) || monthly < 0) throw new AdminError('monthly allocation must be a whole number >= 0');
  if (cap !== null && (!Number.isInteger(cap) || cap < 0)) throw new AdminError('cap must be a whole number >= 0');
  assertCapCoversAllocation(monthly, cap);
  await configureSubscription(orgId, { monthlyAllocation: monthly, cap });
}

export async function addCredits(orgId: string, amount: number): Promise<Balance> {
  await requireOrg(orgId);
  if (!Number.isInteger(amount) || amount <= 0) throw new AdminError('credits must be a whole number > 0');
  const { total } = await getBalance(orgId);
  if (amount > MAX_CREDITS - total) {
    throw new AdminError(`a balance holds at most ${MAX_CREDITS.toLocaleString('en-US')} credits; this one holds ${total.toLocaleString('en-US')}, so at most ${Math.max(0, MAX_CREDITS - total).toLocaleString('en-US')} can be added`);
  }
  await addPurchased(orgId, amount, 'admin top-up');
  return getBalance(orgId);
}

export async function showBalance(orgId: string): Promise<Balance> {
  await requireOrg(orgId);
  return getBalance(orgId);
}

export async function setSpamLimit(orgId: string, included: number | null, addons: number): Promise<Organization> {
  await requireOrg(orgId);
  if (included !== null && (!Number.isInteger(included) || included < 0)) throw new AdminError('included numbers must be a whole number >= 0 (or none for no cap)');
  if (!Number.isInteger(addons) || addons < 0) throw new AdminError('add-on numbers must be a whole number >= 0');
  return updateOrganization(orgId, { spam_included_numbers: included, spam_addon_numbers: addons });
}

/** Codes the local telephony simulator "sent" to a number, newest first (nothing is dialled locally). */
export async function spamVerificationCodes(phone: string): Promise<SimulatedMessage[]> {
  const parsed = await normalizeUsCaOnDemand(phone);
  if (!parsed) throw new AdminError(`'${phone}' is not a valid US or Canadian phone number`);
  return readSimulatedMessages(parsed.e164);
}

/** Runs the contact pool now, as its schedule would (a run already going makes this one skip). */
export async function runContactPoolNow(ports: Ports): Promise<PoolRunSummary> {
  return runContactPool(ports);
}

/** Runs today's spam tests now (all organizations, or one). */
export async function runSpamTestsNow(ports: Ports, orgId?: string): Promise<RunSummary> {
  if (orgId) await requireOrg(orgId);
  return runDailySpamTests(ports, { organizationId: orgId });
}

export interface LookupUsage {
  lookups_paid: number;
  lookups_cached: number;
  lookups_failed: number;
  uploads: number;
}

const ISO_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2}))?$/;

/**
 * Lookups of the organization's uploads (contacts' pool uploads included) created at or after
 * `since`: paid, served from the cache, failed, as each upload's Finalize counted them (an upload
 * that did not complete counts in `uploads` only).
 */
export async function lookupUsage(orgId: string, since: string): Promise<LookupUsage> {
  const at = ISO_TIME.test(since) ? Date.parse(since) : NaN;
  if (!Number.isFinite(at)) throw new AdminError(`--since must be an ISO 8601 date or time (2026-11-01 or 2026-11-01T00:00:00Z), got '${since}'`);
  await requireOrg(orgId);
  const usage: LookupUsage = { lookups_paid: 0, lookups_cached: 0, lookups_failed: 0, uploads: 0 };
  for await (const upload of uploadsCreatedSince(orgId, new Date(at).toISOString())) {
    usage.uploads++;
    usage.lookups_paid += upload.lookups_paid ?? 0;
    usage.lookups_cached += upload.lookups_cached ?? 0;
    usage.lookups_failed += upload.lookups_failed ?? 0;
  }
  return usage;
}

async function requireOrg(orgId: string): Promise<Organization> {
  const org = await getOrganization(orgId);
  if (!org) throw new AdminError(`organization ${orgId} does not exist`);
  return org;
}

async function requireUser(userId: string): Promise<User> {
  const user = await getUser(userId);
  if (!user) throw new AdminError(`user ${userId} does not exist`);
  return user;
}
