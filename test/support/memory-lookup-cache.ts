import { identityRefKey, type CacheWrite, type LookupCacheStore } from '../../lambdas/classification/lookup-cache-store';
import type { IdentityAnswer, NumberEntry } from '../../lambdas/classification/lookup-cache-policy';

/** The lookup cache port in memory, keyed as the table keys it (per provider), with what each write asked to expire. */
export interface MemoryLookupCache extends LookupCacheStore {
  numbers: Map<string, { entry: NumberEntry; expiresAt: number }>;
  identities: Map<string, { answer: IdentityAnswer; expiresAt: number }>;
  writes: CacheWrite[];
  /** Who holds each number's claim (by `provider|e164`), until when (epoch ms). */
  claims: Map<string, { claimant: string; untilMs: number }>;
  /** Every claim asked for, in order, and whether it was taken. */
  claimLog: { e164: string; claimant: string; taken: boolean }[];
}

export function memoryLookupCache(): MemoryLookupCache {
  const numbers = new Map<string, { entry: NumberEntry; expiresAt: number }>();
  const identities = new Map<string, { answer: IdentityAnswer; expiresAt: number }>();
  const writes: CacheWrite[] = [];
  const claims = new Map<string, { claimant: string; untilMs: number }>();
  const claimLog: MemoryLookupCache['claimLog'] = [];
  return {
    numbers,
    identities,
    writes,
    claims,
    claimLog,
    async claim(provider, e164, { claimant, untilMs, nowMs }) {
      const key = `${provider}|${e164}`;
      const held = claims.get(key);
      const taken = !held || held.untilMs < nowMs || held.claimant === claimant;
      claimLog.push({ e164, claimant, taken });
      if (!taken) return { taken: false };
      claims.set(key, { claimant, untilMs });
      const entry = numbers.get(key);
      return { taken: true, entry: entry ? structuredClone(entry.entry) : null, expiresAt: entry?.expiresAt ?? null };
    },
    async release(provider, e164, { claimant }) {
      const key = `${provider}|${e164}`;
      if (claims.get(key)?.claimant === claimant) claims.delete(key);
    },
    async read(provider, keys) {
      const out = { numbers: new Map<string, NumberEntry>(), identities: new Map<string, IdentityAnswer>() };
      for (const e164 of keys.numbers) {
        const held = numbers.get(`${provider}|${e164}`);
        if (held) out.numbers.set(e164, structuredClone(held.entry));
      }
      for (const ref of keys.identities) {
        const held = identities.get(`${provider}|${identityRefKey(ref)}`);
        if (held) out.identities.set(identityRefKey(ref), { ...held.answer });
      }
      return out;
    },
    async write(provider, batch) {
      writes.push(structuredClone(batch));
      // A put replaces the item, the claim on it with it.
      for (const { e164, entry, expiresAt } of batch.numbers) {
        numbers.set(`${provider}|${e164}`, { entry: structuredClone(entry), expiresAt });
        claims.delete(`${provider}|${e164}`);
      }
      for (const { ref, answer, expiresAt } of batch.identities) identities.set(`${provider}|${identityRefKey(ref)}`, { answer: { ...answer }, expiresAt });
    },
  };
}
