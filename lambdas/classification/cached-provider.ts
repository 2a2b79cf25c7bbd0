import type { Clock } from '../platform/clock';
import { newId } from '../platform/ids';
import { logger } from '../platform/logger';
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
// where it came from (`origin`), which the upload counts. Lookups running at the same time (two
// uploads, two chunks, a pool beside an upload) buy a number once: each claims the numbers it is
// about to buy, and one that finds a number claimed waits for the holder's answer in the cache.

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

/** A read of some numbers under way: those this process let go meanwhile. */
interface Reader {
  gone: Set<string>;
}

/** A claim this lookup holds: given back with the entry's expiry as it was. */
interface Claim {
  claimant: string;
  expiresAt: number | null;
}

/** Claims are between processes and last real seconds: they are timed by the real clock, not the business one. */
export interface ClaimTiming {
  nowMs(): number;
  sleep(ms: number): Promise<void>;
}

const realTiming: ClaimTiming = { nowMs: () => Date.now(), sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)) };
/** How long a lookup waiting on another process's claim pauses before reading again: × 1.5 from the first to the last. */
const FIRST_PAUSE_MS = 50;
const LAST_PAUSE_MS = 1_000;

export function cachedProvider(inner: SignalProvider, store: LookupCacheStore, policy: LookupCachePolicy, clock: Clock, timing: ClaimTiming = realTiming): SignalProvider {
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

  // The numbers this process's lookups are buying (or waiting on another process for), each with
  // what settles when that lookup lets it go: the process's other lookups of them wait on that.
  const buying = new Map<string, Promise<void>>();
  // What a lookup read may be older than an answer this process stored since: the screen's reads
  // (and the identity ones, by number), and each lookup's mark, set when a number it read is let go.
  const identityReads = new Map<string, Set<string>>();
  const readers = new Map<string, Set<Reader>>();

  /** A number let go by a lookup of this process: reads of it made before are stale. */
  function letGo(e164: string): void {
    readNumbers.delete(e164);
    for (const key of identityReads.get(e164) ?? []) readIdentities.delete(key);
    identityReads.delete(e164);
    for (const reader of readers.get(e164) ?? []) reader.gone.add(e164);
  }

  /** Runs `read` with its numbers watched: what this process lets go meanwhile is in `gone`. */
  async function watching<T>(e164s: Iterable<string>, read: (reader: Reader) => Promise<T>): Promise<T> {
    const reader: Reader = { gone: new Set() };
    const watched = new Set(e164s);
    for (const e164 of watched) addTo(readers, e164, reader);
    try {
      return await read(reader);
    } finally {
      for (const e164 of watched) {
        const set = readers.get(e164);
        set?.delete(reader);
        if (set && !set.size) readers.delete(e164);
      }
    }
  }

  /** Holds `pending`'s numbers in this process; the function returned lets them go (and wakes who waits). */
  function holdHere(pending: Pending[]): () => void {
    const mine: [string, () => void][] = [];
    for (const e164 of new Set(pending.map((p) => p.item.e164))) {
      let release!: () => void;
      buying.set(e164, new Promise<void>((resolve) => (release = resolve)));
      mine.push([e164, release]);
    }
    return () => {
      for (const [e164, release] of mine) {
        buying.delete(e164);
        letGo(e164);
        release();
      }
    };
  }

  /** `waiting`'s numbers read again from the store; those still missing a kind come back, with their own indexes. */
  async function readAgain(waiting: Pending[], opts: LookupOptions, out: Signals[]): Promise<Pending[]> {
    const answered = new Array<Signals | undefined>(waiting.length);
    const left = await fromCache(waiting.map((p) => p.item), opts, answered, clock.nowMs());
    answered.forEach((a, j) => {
      if (a) out[waiting[j]!.index] = a;
    });
    return left.map((p) => ({ ...p, index: waiting[p.index]!.index }));
  }

  /**
   * Claims each pending number (one claim per number): the ones taken are `mine`, with what the
   * cache held at that moment (an answer written since it was read is served, not bought); the
   * ones another lookup holds are `theirs`, to wait for.
   */
  async function claimEach(pending: Pending[], claimant: string, out: Signals[]): Promise<{ mine: Pending[]; theirs: Pending[]; claims: Map<string, Claim> }> {
    const now = timing.nowMs();
    const byNumber = new Map<string, Pending[]>();
    for (const p of pending) byNumber.set(p.item.e164, [...(byNumber.get(p.item.e164) ?? []), p]);
    const claims = new Map<string, Claim>();
    const mine: Pending[] = [];
    const theirs: Pending[] = [];
    for (const [e164, members] of byNumber) {
      const claim = await store.claim(inner.name, e164, { claimant, untilMs: now + policy.claimMs, nowMs: now });
      if (!claim.taken) {
        theirs.push(...members);
        continue;
      }
      claims.set(e164, { claimant, expiresAt: claim.expiresAt });
      const fresh = clock.nowMs();
      for (const p of members) {
        p.held = claim.entry ?? undefined;
        if (p.need.line && !p.line && isFresh(claim.entry?.line, 'line', policy, fresh)) p.line = claim.entry!.line;
        if (p.need.status && !p.status && isFresh(claim.entry?.status, 'status', policy, fresh)) p.status = claim.entry!.status;
        mine.push(p);
      }
    }
    // An identity answer lives in its own item: read again what the claim could not show.
    const refs = mine.flatMap((p) => (p.ref && missingOf(p).identity ? [p.ref] : []));
    if (refs.length) {
      const read = await store.read(inner.name, { numbers: [], identities: refs });
      const fresh = clock.nowMs();
      for (const p of mine) {
        const identity = p.ref ? read.identities.get(identityRefKey(p.ref)) : undefined;
        if (missingOf(p).identity && isFresh(identity, 'identity', policy, fresh)) p.identity = identity;
      }
    }
    const toBuy = mine.filter((p) => {
      const missing = missingOf(p);
      if (missing.line || missing.status || missing.identity) return true;
      out[p.index] = compose(p.need, p.structural, p, false, 'cache');
      return false;
    });
    return { mine: toBuy, theirs, claims };
  }

  /** Buys what `pending` is missing, one provider call per group of the same missing kinds; stores the answers, then gives back the claims no answer replaced. */
  async function buy(pending: Pending[], opts: LookupOptions, out: Signals[], claims: Map<string, Claim>): Promise<void> {
    const now = clock.nowMs();
    const groups = new Map<string, { missing: Needs; members: Pending[] }>();
    for (const p of pending) {
      const missing = missingOf(p);
      const group = `${missing.line}|${missing.status}|${missing.identity}`;
      if (!groups.has(group)) groups.set(group, { missing, members: [] });
      groups.get(group)!.members.push(p);
    }
    const fetched: Pending[] = [];
    let stored = new Set<string>();
    try {
      for (const { missing, members } of groups.values()) await askProvider(inner, opts, missing, members, now, out, fetched);
    } finally {
      // Answers bought before a later group failed (a provider error the chunk's retry meets) are kept too.
      try {
        if (fetched.length) {
          const writes = writesOf(fetched, policy, now);
          await store.write(inner.name, writes);
          stored = new Set(writes.numbers.map((w) => w.e164));
        }
      } finally {
        // A number whose entry was put is free again (the put replaced the claim); the others are
        // given back so that lookups waiting on them go on at once rather than at the claim's end.
        for (const [e164, claim] of claims) if (!stored.has(e164)) await store.release(inner.name, e164, claim).catch((error: unknown) => logger.warn('lookup claim not given back: it ends on its own', { reason: String(error) }));
      }
    }
  }

  return {
    name: inner.name,
    simulated: inner.simulated,
    async screen(items, opts) {
      const out = new Array<Signals | undefined>(items.length);
      const { pending, gone } = await watching(
        items.map((item) => item.e164),
        async (reader) => ({ pending: await fromCache(items, opts, out, clock.nowMs()), gone: reader.gone }),
      );
      for (const p of pending) {
        // Let go while it was read (an answer may have been stored since): its lookup reads it again.
        if (gone.has(p.item.e164)) continue;
        if (p.need.line || p.need.status) readNumbers.set(p.item.e164, p.held ?? null);
        if (p.ref) {
          readIdentities.set(identityRefKey(p.ref), p.identity ?? null);
          addTo(identityReads, p.item.e164, identityRefKey(p.ref));
        }
      }
      return out;
    },
    async lookup(items, opts) {
      // What this process lets go before this lookup holds it was read too early: read again then.
      return watching(
        items.map((item) => item.e164),
        (reader) => lookupWatched(items, opts, new Array<Signals>(items.length), reader),
      );
    },
  };

  async function lookupWatched(items: LookupItem[], opts: LookupOptions, out: Signals[], reader: Reader): Promise<Signals[]> {
    let rest = await fromCache(items, opts, out, clock.nowMs());
    for (const p of rest) {
      readNumbers.delete(p.item.e164);
      if (p.ref) readIdentities.delete(identityRefKey(p.ref));
      identityReads.delete(p.item.e164);
    }
    // Each round: wait for this process's lookups of the same numbers (no table call; woken when
    // they end) and read again; then hold the numbers left in this process, claim them in the
    // table, buy the ones claimed and give the holds and claims back; then wait for the other
    // processes' holders and read again. Nothing is held while waiting, so no two lookups wait on
    // each other. A number is bought without a claim once its lookup has waited as long as a
    // claim lasts (a holder that stopped without giving it back, or one claim after another) and a
    // pause more, so no lookup waits much longer than that.
    const claimant = opts.claimant ?? newId();
    const waitStarted = timing.nowMs();
    for (let pause = FIRST_PAUSE_MS; rest.length; pause = Math.min(Math.round(pause * 1.5), LAST_PAUSE_MS)) {
      const claiming = policy.claimMs > 0 && timing.nowMs() - waitStarted <= policy.claimMs + LAST_PAUSE_MS;
      if (claiming) {
        const here = rest.filter((p) => buying.has(p.item.e164));
        if (here.length) {
          await Promise.all(new Set(here.map((p) => buying.get(p.item.e164)!)));
          reader.gone.clear();
          rest = await readAgain(rest, opts, out);
          continue;
        }
      }
      const done = claiming ? holdHere(rest) : () => {};
      let theirs: Pending[] = [];
      try {
        // Another lookup of this process stored an answer since these were read: read again (held now).
        if (rest.some((p) => reader.gone.has(p.item.e164))) {
          reader.gone.clear();
          rest = await readAgain(rest, opts, out);
        }
        const round = claiming && policy.claimsIn === 'table' ? await claimEach(rest, claimant, out) : { mine: rest, theirs: [], claims: new Map<string, Claim>() };
        theirs = round.theirs;
        await buy(round.mine, opts, out, round.claims);
      } finally {
        done();
      }
      if (!theirs.length) break;
      await timing.sleep(pause);
      rest = await readAgain(theirs, opts, out);
    }
    return out;
  }
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

/** Adds `value` to the set `map` holds at `key`, starting one. */
function addTo<K, V>(map: Map<K, Set<V>>, key: K, value: V): void {
  const set = map.get(key);
  if (set) set.add(value);
  else map.set(key, new Set([value]));
}

const newer = <T extends { at: number }>(a: T | undefined, b: T): T => (a && a.at > b.at ? a : b);
