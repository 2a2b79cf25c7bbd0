import { AuthenticationFailed } from '../platform/domain-errors';
import { nowMs } from '../platform/clock';
import { KEY_PREFIX, hashApiKey } from './api-key';
import { getApiKeyByHash, getOrganization, getUser } from './identity-repository';
import { recordKeyUse } from './key-usage';
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

  const key = await getApiKeyByHash(hash);
  if (!key || key.revoked_at) throw new AuthenticationFailed('Invalid or revoked API key');
  if (key.expires_at && Date.parse(key.expires_at) <= now) throw new AuthenticationFailed('Invalid or revoked API key');

  // The use is recorded beside the two reads (at most once a minute per key, key-usage.ts).
  const [user, organization] = await Promise.all([getUser(key.created_by_user_id), getOrganization(key.organization_id), recordKeyUse(hash, now)]);
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
