import type { IdentityAnswer, NumberEntry } from './lookup-cache-policy';

// The port the lookup cache reads and writes (cached-provider.ts). The DynamoDB adapter is
// lookup-cache-repository.ts; `noLookupCache` is the cache switched off (LOOKUP_CACHE=off).

/** One identity answer's key: the number, the scope (an organization's, or shared) and the hashed name. */
export interface IdentityRef {
  e164: string;
  scope: string;
  nameHash: string;
}

export const identityRefKey = (ref: IdentityRef): string => `${ref.e164}|${ref.scope}|${ref.nameHash}`;

export interface CacheRead {
  /** By E.164. */
  numbers: Map<string, NumberEntry>;
  /** By identityRefKey. */
  identities: Map<string, IdentityAnswer>;
}

export interface CacheWrite {
  numbers: { e164: string; entry: NumberEntry; expiresAt: number }[];
  identities: { ref: IdentityRef; answer: IdentityAnswer; expiresAt: number }[];
}

export interface LookupCacheStore {
  /** What the cache holds for these keys, per provider; a key it does not hold is absent. */
  read(provider: string, keys: { numbers: string[]; identities: IdentityRef[] }): Promise<CacheRead>;
  /** Stores answers (replacing what is there); `expiresAt` (epoch seconds) is when the table may delete each. */
  write(provider: string, writes: CacheWrite): Promise<void>;
}

/** The cache switched off: holds nothing, keeps nothing. */
export const noLookupCache: LookupCacheStore = {
  async read() {
    return { numbers: new Map(), identities: new Map() };
  },
  async write() {},
};
