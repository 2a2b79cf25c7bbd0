import { AuthenticationFailed } from '../platform/domain-errors';
import { nowMs } from '../platform/clock';
import { KEY_PREFIX, hashApiKey } from './api-key';
import { getApiKeyByHash, readKeyRecordingUse, readPrincipalItems } from './identity-repository';
import { recordKeyUse, takeKeyUse } from './key-usage';
import { PRINCIPAL_CACHE_ENTRIES, PRINCIPAL_CACHE_MS, principals } from './principal-cache';

export type { Principal } from './principal';
import type { Principal } from './principal';

/** The spec's Authentication section, rule 8: each failure has its own exact detail string. */
export async function authenticate(authorization: string | undefined): Promise<Principal> {
  const header = (authorization ?? '').trim();
  if (!header) throw new AuthenticationFailed('API key required');
  // `Bearer` is the only scheme (spec, Authentication 1); its name is case-insensitive (RFC 7235).
  // A bare `Bearer` carries no key; any other scheme, or a key with no scheme, is a malformed value.
  if (/^bearer$/i.test(header)) throw new AuthenticationFailed('API key required');
  const bearer = /^bearer\s+(.*)$/is.exec(header);
  if (!bearer) throw new AuthenticationFailed('Invalid API key format');
  const token = bearer[1]!.trim();
  if (!token.startsWith(KEY_PREFIX)) throw new AuthenticationFailed('Invalid API key format');

  const hash = hashApiKey(token);
  const now = nowMs();
  const cached = principals.get(hash);
  if (cached && now - cached.at < PRINCIPAL_CACHE_MS && now >= cached.at) {
    // Expiry is a property of the key itself: it holds to the millisecond even from the cache.
    if (cached.expiresAt !== null && cached.expiresAt <= now) throw new AuthenticationFailed('Invalid or revoked API key');
    await recordKeyUse(hash, now);
    return cached.principal;
  }
  principals.delete(hash);

  // At most two calls (docs/architecture.md, "Request path"): a key this container authenticated before
  // (its entry expired) is read with its user and organization in one BatchGetItem, beside the use
  // when one is due; a key seen for the first time is read by the write that records its use, then
  // its user and organization together.
  const read = cached
    ? await readKnownKey(hash, cached.principal, now)
    : await readNewKey(hash, now);
  const { key, user, organization } = read;
  if (!key || key.revoked_at) throw new AuthenticationFailed('Invalid or revoked API key');
  if (key.expires_at && Date.parse(key.expires_at) <= now) throw new AuthenticationFailed('Invalid or revoked API key');
  if (!user) throw new AuthenticationFailed('API key creator no longer exists');
  if (!organization) throw new AuthenticationFailed('Organization for this API key no longer exists');

  const principal: Principal = {
    organization,
    organizationId: organization.id,
    userId: user.id,
    apiKeyId: key.id,
    scopes: key.scopes,
  };
  // Oldest first out: a Map iterates in insertion order.
  if (principals.size >= PRINCIPAL_CACHE_ENTRIES) principals.delete(principals.keys().next().value!);
  principals.set(hash, { principal, at: now, expiresAt: key.expires_at ? Date.parse(key.expires_at) : null });
  return principal;
}

type PrincipalItems = Awaited<ReturnType<typeof readPrincipalItems>>;

/** One BatchGetItem (the key, its creator, its organization) and, when due, the use: ≤ 2 calls. */
async function readKnownKey(hash: string, known: Principal, now: number): Promise<PrincipalItems> {
  const [read] = await Promise.all([readPrincipalItems({ keyHash: hash, userId: known.userId, organizationId: known.organizationId }), recordKeyUse(hash, now)]);
  // A key's creator and organization never change; should they differ, the key's own ids win.
  if (read.key && (read.key.created_by_user_id !== known.userId || read.key.organization_id !== known.organizationId)) {
    return { ...(await readPrincipalItems({ userId: read.key.created_by_user_id, organizationId: read.key.organization_id })), key: read.key };
  }
  return read;
}

/**
 * The key by the write that records its use when one is due (a plain read otherwise, or when that
 * write's condition refused: no such key, revoked, expired, or used within the minute elsewhere),
 * then its user and organization in one call: 2 calls, 3 only when another process recorded this
 * key's use within the minute before this container first saw it.
 */
async function readNewKey(hash: string, now: number): Promise<PrincipalItems> {
  const key = (takeKeyUse(hash, now) ? await readKeyRecordingUse(hash, now) : null) ?? (await getApiKeyByHash(hash));
  // A refused key is refused without reading more.
  if (!key || key.revoked_at || (key.expires_at && Date.parse(key.expires_at) <= now)) return { key, user: null, organization: null };
  return { ...(await readPrincipalItems({ userId: key.created_by_user_id, organizationId: key.organization_id })), key };
}
