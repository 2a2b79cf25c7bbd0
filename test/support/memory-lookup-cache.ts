import { identityRefKey, type CacheWrite, type LookupCacheStore } from '../../lambdas/classification/lookup-cache-store';
import type { IdentityAnswer, NumberEntry } from '../../lambdas/classification/lookup-cache-policy';

/** The lookup cache port in memory, keyed as the table keys it (per provider), with what each write asked to expire. */
export interface MemoryLookupCache extends LookupCacheStore {
  numbers: Map<string, { entry: NumberEntry; expiresAt: number }>;
  identities: Map<string, { answer: IdentityAnswer; expiresAt: number }>;
  writes: CacheWrite[];
}

export function memoryLookupCache(): MemoryLookupCache {
  const numbers = new Map<string, { entry: NumberEntry; expiresAt: number }>();
  const identities = new Map<string, { answer: IdentityAnswer; expiresAt: number }>();
  const writes: CacheWrite[] = [];
  return {
    numbers,
    identities,
    writes,
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
      for (const { e164, entry, expiresAt } of batch.numbers) numbers.set(`${provider}|${e164}`, { entry: structuredClone(entry), expiresAt });
      for (const { ref, answer, expiresAt } of batch.identities) identities.set(`${provider}|${identityRefKey(ref)}`, { answer: { ...answer }, expiresAt });
    },
  };
}
