import type { IdentityAnswer, NumberEntry } from './lookup-cache-policy';

// The port the lookup cache reads and writes (cached-provider.ts), and the claims by which lookups
// running at the same time buy a number once. The DynamoDB adapter is lookup-cache-repository.ts;
// `noLookupCache` is the cache switched off (LOOKUP_CACHE=off).

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

/** A claim taken: what the number's entry held at that moment (null: nothing), and its table expiry before the claim. */
export interface ClaimTaken {
  taken: true;
  entry: NumberEntry | null;
  /** The entry's `expiresAt` before the claim (epoch seconds), given back when the claim is released without an answer. */
  expiresAt: number | null;
}

export interface LookupCacheStore {
  /** What the cache holds for these keys, per provider; a key it does not hold is absent. */
  read(provider: string, keys: { numbers: string[]; identities: IdentityRef[] }): Promise<CacheRead>;
  /**
   * Stores answers (replacing what is there, a number's claim with it); `expiresAt` (epoch seconds)
   * is when the table may delete each.
   */
  write(provider: string, writes: CacheWrite): Promise<void>;
  /**
   * Takes the right to buy a number's answers until `untilMs` (epoch ms): taken when no one holds it,
   * the holder's time has passed (`nowMs`), or `claimant` holds it already (a retry of the same work).
   */
  claim(provider: string, e164: string, claim: { claimant: string; untilMs: number; nowMs: number }): Promise<ClaimTaken | { taken: false }>;
  /** Gives a claim back without an answer (only while `claimant` holds it), restoring the entry's expiry. */
  release(provider: string, e164: string, claim: { claimant: string; expiresAt: number | null }): Promise<void>;
}

/** The cache switched off: holds nothing, keeps nothing, so no lookup waits on another. */
export const noLookupCache: LookupCacheStore = {
  async read() {
    return { numbers: new Map(), identities: new Map() };
  },
  async write() {},
  async claim() {
    return { taken: true, entry: null, expiresAt: null };
  },
  async release() {},
};
