import type { Clock } from '../platform/clock';
import type { SignalProvider } from './provider';
import type { LineType, LookupItem, LookupOptions, Signals } from './signals';
import { expiresAtSeconds, identityScope, isFresh, nameKey, neededKinds, type IdentityAnswer, type LineAnswer, type LookupCachePolicy, type Needs, type NumberEntry, type StatusAnswer } from './lookup-cache-policy';
import { identityRefKey, type CacheWrite, type IdentityRef, type LookupCacheStore } from './lookup-cache-store';
import { rangeDecided, structuralLineType } from './range-screen';

// A paid provider behind a cache (docs/classification.md, Lookup cache). Per number: a range that
// decides it is answered free; the signal kinds the request needs are served from the cache while
// fresh; only the numbers with a kind missing go to the provider, asked for the missing kinds only;
// its real answers are stored. A failed lookup (lookupError) and a simulated answer are never
// stored. The result of every number is what a fresh lookup of the needed kinds gives; each says
// where it came from (`origin`), which the upload counts.

interface Pending {
  index: number;
  item: LookupItem;
  need: Needs;
  structural: LineType;
  ref: IdentityRef | null;
  /** What the cache held for the number (its still-fresh answers are kept when new ones are stored). */
  held?: NumberEntry;
  /** The kinds the provider was asked for. */
  asked?: Needs;
  line?: LineAnswer;
  status?: StatusAnswer;
  identity?: IdentityAnswer;
}

export function cachedProvider(inner: SignalProvider, store: LookupCacheStore, policy: LookupCachePolicy, clock: Clock): SignalProvider {
  // What `screen` read and did not answer, for the `lookup` that follows (each entry used once, so
  // nothing read here outlives the next lookup of its number): null when the cache had nothing.
  const readNumbers = new Map<string, NumberEntry | null>();
  const readIdentities = new Map<string, IdentityAnswer | null>();

  /** The range screen and the cache: answers what they can, the rest pending with what the cache held. */
  async function fromCache(items: LookupItem[], opts: LookupOptions, out: (Signals | undefined)[], now: number): Promise<Pending[]> {
    const pending: Pending[] = [];
    const scope = identityScope(opts.organizationId, policy);
    items.forEach((item, index) => {
      const free = rangeDecided(item.e164);
      if (free) return void (out[index] = free);
      const need = neededKinds(item, opts);
      const structural = structuralLineType(item.e164);
      if (!need.line && !need.status && !need.identity) return void (out[index] = compose(need, structural, {}, false, 'free'));
      const ref = need.identity && scope && item.name ? { e164: item.e164, scope, nameHash: nameKey(item.name) } : null;
      pending.push({ index, item, need, structural, ref });
    });
    if (!pending.length) return pending;

    const numbers = [...new Set(pending.filter((p) => (p.need.line || p.need.status) && !readNumbers.has(p.item.e164)).map((p) => p.item.e164))];
    const identities = pending.flatMap((p) => (p.ref && !readIdentities.has(identityRefKey(p.ref)) ? [p.ref] : []));
    const cached = numbers.length || identities.length ? await store.read(inner.name, { numbers, identities }) : { numbers: new Map<string, NumberEntry>(), identities: new Map<string, IdentityAnswer>() };
    const rest: Pending[] = [];
    for (const p of pending) {
      const entry = cached.numbers.get(p.item.e164) ?? readNumbers.get(p.item.e164) ?? undefined;
      p.held = entry;
      if (p.need.line && isFresh(entry?.line, 'line', policy, now)) p.line = entry!.line;
      if (p.need.status && isFresh(entry?.status, 'status', policy, now)) p.status = entry!.status;
      const identity = p.ref ? (cached.identities.get(identityRefKey(p.ref)) ?? readIdentities.get(identityRefKey(p.ref)) ?? undefined) : undefined;
      if (p.need.identity && isFresh(identity, 'identity', policy, now)) p.identity = identity;
      if (!missingOf(p).line && !missingOf(p).status && !missingOf(p).identity) out[p.index] = compose(p.need, p.structural, p, false, 'cache');
      else rest.push(p);
    }
    return rest;
  }

  return {
    name: inner.name,
    simulated: inner.simulated,
    async screen(items, opts) {
      const out = new Array<Signals | undefined>(items.length);
      for (const p of await fromCache(items, opts, out, clock.nowMs())) {
        if (p.need.line || p.need.status) readNumbers.set(p.item.e164, p.held ?? null);
        if (p.ref) readIdentities.set(identityRefKey(p.ref), p.identity ?? null);
      }
      return out;
    },
    async lookup(items, opts) {
      const now = clock.nowMs();
      const out = new Array<Signals>(items.length);
      const rest = await fromCache(items, opts, out, now);
      for (const p of rest) {
        readNumbers.delete(p.item.e164);
        if (p.ref) readIdentities.delete(identityRefKey(p.ref));
      }
      // Numbers with a needed kind missing, grouped by what is missing: one provider call per group.
      const groups = new Map<string, { missing: Needs; members: Pending[] }>();
      for (const p of rest) {
        const missing = missingOf(p);
        const group = `${missing.line}|${missing.status}|${missing.identity}`;
        if (!groups.has(group)) groups.set(group, { missing, members: [] });
        groups.get(group)!.members.push(p);
      }

      const fetched: Pending[] = [];
      try {
        for (const { missing, members } of groups.values()) await askProvider(inner, opts, missing, members, now, out, fetched);
      } finally {
        // Answers bought before a later group failed (a provider error the chunk's retry meets) are kept too.
        if (fetched.length) await store.write(inner.name, writesOf(fetched, policy, now));
      }
      return out;
    },
  };
}

/** The kinds a pending number still needs. */
function missingOf(p: Pending): Needs {
  return { line: p.need.line && !p.line, status: p.need.status && !p.status, identity: p.need.identity && !p.identity };
}

/** One provider call for the numbers missing the same kinds, asked for those kinds only. */
async function askProvider(inner: SignalProvider, opts: LookupOptions, missing: Needs, members: Pending[], now: number, out: Signals[], fetched: Pending[]): Promise<void> {
  const asked = members.map((p) => (missing.identity ? p.item : { e164: p.item.e164 }));
  const answers = await inner.lookup(asked, { ...opts, tier: missing.status ? 'max' : 'standard', skipMobileLookup: !missing.line });
  members.forEach((p, k) => {
    const a = answers[k]!;
    if (a.lookupError) return void (out[p.index] = { ...a, origin: 'paid' });
    p.asked = missing;
    if (missing.line) p.line = { lineType: a.lineType, carrier: a.carrier, callScreening: a.callScreening, activityScore: a.activityScore, ported: a.ported, at: now };
    if (missing.status) p.status = { lineStatus: a.lineStatus, at: now };
    if (missing.identity) p.identity = { nameMatchScore: a.nameMatchScore, nameMatch: a.nameMatch, callerName: a.callerName, at: now };
    out[p.index] = compose(p.need, p.structural, p, a.simulated, a.simulated ? 'free' : 'paid');
    // Simulated answers are development data: never kept as if they were real.
    if (!a.simulated) fetched.push(p);
  });
}

/** The signals of one number from its answers by kind; kinds not needed are unknown (the line: its range's type). */
function compose(need: Needs, structural: LineType, answers: Pick<Pending, 'line' | 'status' | 'identity'>, simulated: boolean, origin: Signals['origin']): Signals {
  return {
    lineType: need.line && answers.line ? answers.line.lineType : structural,
    carrier: need.line ? (answers.line?.carrier ?? null) : null,
    callScreening: need.line ? (answers.line?.callScreening ?? null) : null,
    activityScore: need.line ? (answers.line?.activityScore ?? null) : null,
    ported: need.line ? (answers.line?.ported ?? null) : null,
    lineStatus: need.status ? (answers.status?.lineStatus ?? null) : null,
    callerName: need.identity ? (answers.identity?.callerName ?? null) : null,
    nameMatchScore: need.identity ? (answers.identity?.nameMatchScore ?? null) : null,
    nameMatch: need.identity ? (answers.identity?.nameMatch ?? null) : null,
    simulated,
    origin,
  };
}

/** What to store: per number its fresh answers (new ones and those still fresh), per identity its answer. */
function writesOf(fetched: Pending[], policy: LookupCachePolicy, now: number): CacheWrite {
  const numbers = new Map<string, NumberEntry>();
  const identities: CacheWrite['identities'] = [];
  for (const p of fetched) {
    if (!p.asked!.line && !p.asked!.status) {
      // Only identity was asked: the number's entry is as it was.
    } else {
      const entry = numbers.get(p.item.e164) ?? {};
      for (const line of [p.held?.line, p.asked!.line ? p.line : undefined]) if (line && isFresh(line, 'line', policy, now)) entry.line = newer(entry.line, line);
      for (const status of [p.held?.status, p.asked!.status ? p.status : undefined]) if (status && isFresh(status, 'status', policy, now)) entry.status = newer(entry.status, status);
      if (entry.line || entry.status) numbers.set(p.item.e164, entry);
    }
    if (p.ref && p.identity && p.asked!.identity && policy.ttlMs.identity > 0) {
      identities.push({ ref: p.ref, answer: p.identity, expiresAt: expiresAtSeconds([{ kind: 'identity', at: now }], policy)! });
    }
  }
  return {
    numbers: [...numbers].map(([e164, entry]) => ({
      e164,
      entry,
      expiresAt: expiresAtSeconds([...(entry.line ? [{ kind: 'line' as const, at: entry.line.at }] : []), ...(entry.status ? [{ kind: 'status' as const, at: entry.status.at }] : [])], policy)!,
    })),
    identities,
  };
}

const newer = <T extends { at: number }>(a: T | undefined, b: T): T => (a && a.at > b.at ? a : b);
