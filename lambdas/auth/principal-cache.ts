import type { Principal } from './principal';

/**
 * How long a container reuses what it read for a key (the key, its creator, its organization):
 * a key revoked, a user or organization removed, or a subscription changed by another process is
 * honoured by every container within this bound (docs/architecture.md, "Caches"). Changes made
 * through this process (identity-repository.ts) drop the entries at once. Expiry is checked on
 * every request.
 */
export const PRINCIPAL_CACHE_MS = 15_000;
export const PRINCIPAL_CACHE_ENTRIES = 1_000;

/** By key hash. */
export const principals = new Map<string, { principal: Principal; at: number; expiresAt: number | null }>();

/** Forget every cached principal (after a write to identities; tests). */
export function forgetPrincipals(): void {
  principals.clear();
}
