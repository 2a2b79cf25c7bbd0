import { describe, expect, it, vi } from 'vitest';
import { parseConfig } from '../../../lambdas/platform/config';
import { cachedProvider, type ClaimTiming } from '../../../lambdas/classification/cached-provider';
import { cachePolicyFromConfig, type LookupCachePolicy } from '../../../lambdas/classification/lookup-cache-policy';
import type { SignalProvider } from '../../../lambdas/classification';
import { noSignals, type LookupItem, type LookupOptions, type Signals } from '../../../lambdas/classification/signals';
import { manualClock } from '../../support/manual-clock';
import { memoryLookupCache } from '../../support/memory-lookup-cache';

// Lookups running at the same time buy a number once (docs/classification.md, Lookup cache): the
// cache port's claims, in memory here; the table's are tested in lookup-cache-repository.test.ts
// and the whole path with uploads in test/integration/uploads/lookup-cache.test.ts.

const T0 = Date.parse('2026-11-01T00:00:00Z');
const policy: LookupCachePolicy = cachePolicyFromConfig(parseConfig({}));
const std: LookupOptions = { tier: 'standard', skipMobileLookup: false, organizationId: 'org-a' };
const A = '+13125552000';
const B = '+13125552001';

/** A paid provider stand-in whose answers wait for `open()`; it records every number asked, and fails each number in `fail` once. */
function gatedProvider(options: { fail?: Set<string> } = {}) {
  const asked: LookupItem[] = [];
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const provider: SignalProvider = {
    name: 'gated',
    simulated: false,
    async lookup(items, opts) {
      asked.push(...structuredClone(items));
      await gate;
      return items.map((item): Signals => {
        if (options.fail?.delete(item.e164)) return { ...noSignals(false), lookupError: 'answered 503' };
        return { ...noSignals(false), lineType: 'mobile', carrier: 'Verizon Wireless', lineStatus: opts.tier === 'max' ? 'active' : null, nameMatchScore: item.name ? 90 : null };
      });
    },
  };
  return { provider, asked, open };
}

/** Claim time that moves only when a lookup pauses: a wait of any length without a real clock. */
function steppedTiming(): ClaimTiming & { slept: number[] } {
  let now = T0;
  const slept: number[] = [];
  return { slept, nowMs: () => now, sleep: async (ms) => void (slept.push(ms), (now += ms)) };
}

/** One provider over one store, and `other`: the same provider in another process (its own memory, the same store). */
function setup(options: { fail?: Set<string>; policy?: LookupCachePolicy; timing?: ClaimTiming } = {}) {
  const clock = manualClock();
  clock.set(() => T0);
  const fake = gatedProvider(options);
  const cache = memoryLookupCache();
  const provider = cachedProvider(fake.provider, cache, options.policy ?? policy, clock, options.timing);
  const other = cachedProvider(fake.provider, cache, options.policy ?? policy, clock, options.timing);
  return { fake, cache, provider, other };
}

/**
 * A process-claims provider whose first cache read answers what the store held when it was made,
 * but only once `openRead` is called: a read that comes back after other lookups ran.
 */
function lateFirstRead() {
  const clock = manualClock();
  clock.set(() => T0);
  const fake = gatedProvider();
  const cache = memoryLookupCache();
  let openRead!: () => void;
  const readGate = new Promise<void>((resolve) => (openRead = resolve));
  let reads = 0;
  const slowFirstRead = {
    ...cache,
    read: async (provider: string, keys: Parameters<typeof cache.read>[1]) => {
      const snapshot = await cache.read(provider, keys);
      if (reads++ === 0) await readGate;
      return snapshot;
    },
  };
  const provider = cachedProvider(fake.provider, slowFirstRead, cachePolicyFromConfig(parseConfig({ LOOKUP_CLAIMS: 'process' })), clock);
  return { fake, provider, openRead };
}

const refusedFor = (cache: ReturnType<typeof memoryLookupCache>, claimant: string) => cache.claimLog.some((c) => c.claimant === claimant && !c.taken);

describe('lookup claims', () => {
  it('two processes\' lookups of one number at the same time: the provider is asked once, the second is served the first\'s answer', async () => {
    const { fake, cache, provider, other } = setup();
    const first = provider.lookup([{ e164: A }], { ...std, claimant: 'upload-1#0#0' });
    await vi.waitFor(() => expect(fake.asked).toHaveLength(1));
    const second = other.lookup([{ e164: A }], { ...std, claimant: 'upload-2#0#0' });
    await vi.waitFor(() => expect(refusedFor(cache, 'upload-2#0#0')).toBe(true));
    fake.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a[0]).toMatchObject({ lineType: 'mobile', carrier: 'Verizon Wireless', origin: 'paid' });
    expect(b[0]).toMatchObject({ lineType: 'mobile', carrier: 'Verizon Wireless', origin: 'cache' });
    expect(fake.asked).toEqual([{ e164: A }]);
    // The answer's put gave the claim back.
    expect(cache.claims.size).toBe(0);
  });

  it('lookups of crossing numbers ([A, B] beside [B, A]) each hold what they claimed and never wait on each other forever', async () => {
    const { fake, provider, other, cache } = setup();
    const one = provider.lookup([{ e164: A }, { e164: B }], { ...std, claimant: 'one' });
    const two = other.lookup([{ e164: B }, { e164: A }], { ...std, claimant: 'two' });
    const three = provider.lookup([{ e164: B }, { e164: A }], { ...std, claimant: 'three' });
    fake.open();
    const results = await Promise.all([one, two, three]);
    expect(results.flat().every((r) => r.lineType === 'mobile')).toBe(true);
    expect(fake.asked.map((i) => i.e164).sort()).toEqual([A, B]);
    expect(cache.claims.size).toBe(0);
  });

  it('a holder whose lookup failed gives the claim back: the waiting lookup buys the number itself at once', async () => {
    const { fake, cache, provider, other } = setup({ fail: new Set([A]) });
    const first = provider.lookup([{ e164: A }], { ...std, claimant: 'one' });
    await vi.waitFor(() => expect(fake.asked).toHaveLength(1));
    const second = other.lookup([{ e164: A }], { ...std, claimant: 'two' });
    await vi.waitFor(() => expect(refusedFor(cache, 'two')).toBe(true));
    fake.open();
    const [a, b] = await Promise.all([first, second]);
    expect(a[0]!.lookupError).toBe('answered 503');
    expect(b[0]).toMatchObject({ lineType: 'mobile', origin: 'paid' });
    expect(fake.asked).toHaveLength(2);
    expect(cache.claims.size).toBe(0);
  });

  it('a holder that stopped without giving the claim back (a killed process) holds the number at most one claim\'s time', async () => {
    const timing = steppedTiming();
    const { fake, cache, provider } = setup({ timing });
    cache.claims.set(`gated|${A}`, { claimant: 'killed', untilMs: T0 + policy.claimMs });
    fake.open();
    const result = await provider.lookup([{ e164: A }], { ...std, claimant: 'next' });
    expect(result[0]).toMatchObject({ lineType: 'mobile', origin: 'paid' });
    expect(fake.asked).toHaveLength(1);
    // It read again after each pause, backing off, and took the claim once the holder's had ended.
    const waited = timing.slept.reduce((a, b) => a + b, 0);
    expect(waited).toBeGreaterThan(policy.claimMs);
    expect(waited).toBeLessThan(policy.claimMs + 2 * 1_000 + 1);
    expect(Math.max(...timing.slept)).toBe(1_000);
    expect(cache.claimLog.filter((c) => c.claimant === 'next').at(-1)).toMatchObject({ taken: true });
  });

  it('one claim after another never holds a lookup much longer than a claim lasts: then it buys without one', async () => {
    const timing = steppedTiming();
    const { fake, cache, provider } = setup({ timing });
    // Someone always holds it: every claim refused.
    const claim = cache.claim.bind(cache);
    cache.claim = async (p, e164, c) => (cache.claims.set(`${p}|${e164}`, { claimant: `other-${timing.nowMs()}`, untilMs: timing.nowMs() + 1 }), claim(p, e164, c));
    fake.open();
    const result = await provider.lookup([{ e164: A }], { ...std, claimant: 'patient' });
    expect(result[0]).toMatchObject({ lineType: 'mobile', origin: 'paid' });
    expect(timing.slept.reduce((a, b) => a + b, 0)).toBeLessThan(policy.claimMs + 2 * 1_000 + 1);
    expect(fake.asked).toHaveLength(1);
  });

  it('a retry of the same work (same claimant) takes its own claim over at once', async () => {
    const timing = steppedTiming();
    const { fake, cache, provider } = setup({ timing });
    cache.claims.set(`gated|${A}`, { claimant: 'upload-1#3#17', untilMs: T0 + policy.claimMs });
    fake.open();
    expect((await provider.lookup([{ e164: A }], { ...std, claimant: 'upload-1#3#17' }))[0]!.origin).toBe('paid');
    expect(timing.slept).toEqual([]);
  });

  it('an answer written after the screen read it missing is served when the claim shows it, not bought', async () => {
    const { fake, cache, provider } = setup();
    expect(await provider.screen!([{ e164: A }], std)).toEqual([undefined]);
    // Another lookup answers A in between.
    await cache.write('gated', { numbers: [{ e164: A, entry: { line: { lineType: 'landline', carrier: 'AT&T', callScreening: null, activityScore: null, ported: null, at: T0 } }, expiresAt: 1 }], identities: [] });
    fake.open();
    expect((await provider.lookup([{ e164: A }], { ...std, claimant: 'late' }))[0]).toMatchObject({ lineType: 'landline', carrier: 'AT&T', origin: 'cache' });
    expect(fake.asked).toEqual([]);
    expect(cache.claims.size).toBe(0);
  });

  it('a claim for an identity alone (line type cached) is given back: the number\'s entry is not written', async () => {
    const { fake, cache, provider } = setup();
    fake.open();
    await provider.lookup([{ e164: A }], std);
    const named = await provider.lookup([{ e164: A, name: { full: 'Ada Lovelace' } }], std);
    expect(named[0]).toMatchObject({ origin: 'paid', nameMatchScore: 90 });
    expect(cache.writes.at(-1)!.numbers).toEqual([]);
    expect(cache.claims.size).toBe(0);
  });

  it('a claim is given back when the provider throws, so no one waits for it', async () => {
    const clock = manualClock();
    const cache = memoryLookupCache();
    const throwing: SignalProvider = { name: 'gated', simulated: false, lookup: async () => Promise.reject(new Error('401 check credentials')) };
    await expect(cachedProvider(throwing, cache, policy, clock).lookup([{ e164: A }], std)).rejects.toThrow(/401/);
    expect(cache.claimLog).toHaveLength(1);
    expect(cache.claims.size).toBe(0);
  });

  it('lookups of one process wait on each other in memory: no table claim for the second, woken as soon as the first ends', async () => {
    const timing = steppedTiming();
    const { fake, cache, provider } = setup({ timing });
    const first = provider.lookup([{ e164: A }], { ...std, claimant: 'one' });
    await vi.waitFor(() => expect(fake.asked).toHaveLength(1));
    const second = provider.lookup([{ e164: A }], { ...std, claimant: 'two' });
    const third = provider.lookup([{ e164: A, name: { full: 'Ada Lovelace' } }], { ...std, claimant: 'three' });
    fake.open();
    const [a, b, c] = await Promise.all([first, second, third]);
    expect([a[0]!.origin, b[0]!.origin, c[0]!.origin]).toEqual(['paid', 'cache', 'paid']);
    // The line type bought once; the named lookup bought its identity alone, after the first.
    expect(fake.asked).toEqual([{ e164: A }, { e164: A, name: { full: 'Ada Lovelace' } }]);
    expect(cache.claimLog.map((l) => [l.claimant, l.taken])).toEqual([['one', true], ['three', true]]);
    expect(timing.slept).toEqual([]);
  });

  it('LOOKUP_CLAIMS=process (npm start): claims in memory alone, never in the table', async () => {
    const { fake, cache, provider } = setup({ policy: cachePolicyFromConfig(parseConfig({ LOOKUP_CLAIMS: 'process' })) });
    const lookups = [provider.lookup([{ e164: A }], std), provider.lookup([{ e164: A }], std), provider.lookup([{ e164: B }, { e164: A }], std)];
    fake.open();
    const results = await Promise.all(lookups);
    expect(results.flat().filter((r) => r.origin === 'paid')).toHaveLength(2);
    expect(fake.asked.map((i) => i.e164).sort()).toEqual([A, B]);
    expect(cache.claimLog).toEqual([]);
    expect(() => parseConfig({ LOOKUP_CLAIMS: 'disk' })).toThrow(/LOOKUP_CLAIMS/);
  });

  it('LOOKUP_CLAIMS=process: a number screened missing and bought by another lookup of the process since is served, not bought again', async () => {
    const { fake, cache, provider } = setup({ policy: cachePolicyFromConfig(parseConfig({ LOOKUP_CLAIMS: 'process' })) });
    fake.open();
    expect(await provider.screen!([{ e164: A }, { e164: B }], std)).toEqual([undefined, undefined]);
    expect((await provider.lookup([{ e164: A }], std))[0]!.origin).toBe('paid');
    expect((await provider.lookup([{ e164: A }], std))[0]!.origin).toBe('cache');
    expect((await provider.lookup([{ e164: B }], std))[0]!.origin).toBe('paid');
    expect(fake.asked.map((i) => i.e164)).toEqual([A, B]);
    expect(cache.claimLog).toEqual([]);
  });

  it('LOOKUP_CLAIMS=process: a lookup whose read came back after another lookup of the process bought the number is served, not bought again', async () => {
    const { fake, provider, openRead } = lateFirstRead();
    const late = provider.lookup([{ e164: A }], std);
    fake.open();
    expect((await provider.lookup([{ e164: A }], std))[0]!.origin).toBe('paid');
    openRead();
    expect((await late)[0]).toMatchObject({ origin: 'cache', lineType: 'mobile' });
    expect(fake.asked).toHaveLength(1);
  });

  it('LOOKUP_CLAIMS=process: a screen whose read came back after another lookup bought the number keeps no read of it: its lookup is served', async () => {
    const { fake, provider, openRead } = lateFirstRead();
    const screened = provider.screen!([{ e164: A }], std);
    fake.open();
    expect((await provider.lookup([{ e164: A }], std))[0]!.origin).toBe('paid');
    openRead();
    expect(await screened).toEqual([undefined]);
    expect((await provider.lookup([{ e164: A }], std))[0]!.origin).toBe('cache');
    expect(fake.asked).toHaveLength(1);
  });

  it('LOOKUP_CLAIM_SECONDS=0: no claims, each lookup buys its own', async () => {
    const { fake, cache, provider } = setup({ policy: cachePolicyFromConfig(parseConfig({ LOOKUP_CLAIM_SECONDS: '0' })) });
    fake.open();
    await Promise.all([provider.lookup([{ e164: A }], std), provider.lookup([{ e164: A }], std)]);
    expect(cache.claimLog).toEqual([]);
    expect(fake.asked).toHaveLength(2);
  });
});
