import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../../lambdas/platform/config';
import { cachedProvider } from '../../../lambdas/classification/cached-provider';
import { cachePolicyFromConfig, expiresAtSeconds, hasName, identityScope, isFresh, nameKey, neededKinds, type LookupCachePolicy } from '../../../lambdas/classification/lookup-cache-policy';
import { rangeDecided } from '../../../lambdas/classification/range-screen';
import { classifyBatch, simulatorProvider, type SignalProvider } from '../../../lambdas/classification';
import { noSignals, type LookupItem, type LookupOptions, type Signals } from '../../../lambdas/classification/signals';
import { lookupCountsOf, lookupMetricsLine } from '../../../lambdas/classification/lookup-usage';
import { manualClock } from '../../support/manual-clock';
import { memoryLookupCache } from '../../support/memory-lookup-cache';

const DAY = 86_400_000;
const HOUR = 3_600_000;
const T0 = Date.parse('2026-11-01T00:00:00Z');
const policy: LookupCachePolicy = cachePolicyFromConfig(parseConfig({}));

describe('lookup cache policy', () => {
  it('defaults: line type and carrier 30 days, line status a day, identity 30 days, identity not shared; the stage can change each', () => {
    expect(policy).toEqual({ ttlMs: { line: 30 * DAY, status: 24 * HOUR, identity: 30 * DAY }, shareIdentity: false, claimMs: 60_000, claimsIn: "table" });
    const custom = cachePolicyFromConfig(parseConfig({ LOOKUP_CACHE_LINE_TTL_DAYS: '14', LOOKUP_CACHE_STATUS_TTL_HOURS: '0', LOOKUP_CACHE_IDENTITY_TTL_DAYS: '7', LOOKUP_CACHE_SHARE_IDENTITY: 'true' }));
    expect(custom).toEqual({ ttlMs: { line: 14 * DAY, status: 0, identity: 7 * DAY }, shareIdentity: true, claimMs: 60_000, claimsIn: "table" });
    expect(() => parseConfig({ LOOKUP_CACHE_LINE_TTL_DAYS: '-1' })).toThrow(/LOOKUP_CACHE_LINE_TTL_DAYS/);
    expect(() => parseConfig({ LOOKUP_CACHE: 'maybe' })).toThrow(/LOOKUP_CACHE/);
    expect(() => parseConfig({ LOOKUP_CLAIM_SECONDS: '91' })).toThrow(/LOOKUP_CLAIM_SECONDS/);
    // Only the exact word turns sharing on.
    expect(cachePolicyFromConfig(parseConfig({ LOOKUP_CACHE_SHARE_IDENTITY: 'yes' })).shareIdentity).toBe(false);
  });

  it('an answer is fresh while younger than its kind\'s TTL, and never when the kind is not cached', () => {
    expect(isFresh({ at: T0 }, 'line', policy, T0 + 30 * DAY - 1)).toBe(true);
    expect(isFresh({ at: T0 }, 'line', policy, T0 + 30 * DAY)).toBe(false);
    expect(isFresh({ at: T0 }, 'status', policy, T0 + 24 * HOUR - 1)).toBe(true);
    expect(isFresh({ at: T0 }, 'status', policy, T0 + 24 * HOUR)).toBe(false);
    expect(isFresh({ at: T0 }, 'identity', policy, T0 + 29 * DAY)).toBe(true);
    expect(isFresh({ at: T0 }, 'identity', { ...policy, ttlMs: { ...policy.ttlMs, identity: 0 } }, T0)).toBe(false);
    expect(isFresh(undefined, 'line', policy, T0)).toBe(false);
    // Hostile or broken ages: from the far future (a clock gone wrong), not a number.
    expect(isFresh({ at: T0 + 30_000 }, 'line', policy, T0)).toBe(true);
    expect(isFresh({ at: T0 + 365 * DAY }, 'line', policy, T0)).toBe(false);
    expect(isFresh({ at: Number.NaN }, 'line', policy, T0)).toBe(false);
  });

  it('a request needs line type unless skip_mobile_lookup, line status at max, identity with a full name or first and last', () => {
    const std: Pick<LookupOptions, 'tier' | 'skipMobileLookup'> = { tier: 'standard', skipMobileLookup: false };
    expect(neededKinds({ e164: '+13125552000' }, std)).toEqual({ line: true, status: false, identity: false });
    expect(neededKinds({ e164: '+13125552000', name: { full: 'Ada Lovelace' } }, { tier: 'max', skipMobileLookup: true })).toEqual({ line: false, status: true, identity: true });
    expect(neededKinds({ e164: '+13125552000', name: { first: 'Ada' } }, std).identity).toBe(false);
    expect(hasName({ first: 'Ada', last: 'Lovelace' })).toBe(true);
    expect(hasName({ full: '' })).toBe(false);
  });

  it('identity answers are scoped to the organization unless the operator shares them', () => {
    expect(identityScope('org-a', policy)).toBe('org:org-a');
    expect(identityScope('org-b', policy)).not.toBe(identityScope('org-a', policy));
    expect(identityScope(undefined, policy)).toBeNull();
    const shared = { ...policy, shareIdentity: true };
    expect(identityScope('org-a', shared)).toBe('shared');
    expect(identityScope('org-b', shared)).toBe('shared');
  });

  it('the name key ignores case and spacing, tells other names apart, and holds no name', () => {
    const key = nameKey({ full: 'Ada  Lovelace' });
    expect(nameKey({ full: ' ada lovelace ' })).toBe(key);
    expect(nameKey({ full: 'Ada Byron' })).not.toBe(key);
    expect(nameKey({ first: 'Ada', last: 'Lovelace' })).not.toBe(key);
    expect(nameKey({ first: 'ADA', last: 'lovelace' })).toBe(nameKey({ first: 'Ada', last: 'Lovelace' }));
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(nameKey({ full: 'x'.repeat(100_000) })).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the TTL attribute is the epoch second the last answer of an entry goes stale', () => {
    expect(expiresAtSeconds([{ kind: 'line', at: T0 }], policy)).toBe((T0 + 30 * DAY) / 1000);
    expect(expiresAtSeconds([{ kind: 'line', at: T0 }, { kind: 'status', at: T0 + 40 * DAY }], policy)).toBe((T0 + 41 * DAY) / 1000);
    expect(expiresAtSeconds([{ kind: 'status', at: T0 + 1 }], policy)).toBe(Math.ceil((T0 + 1 + DAY) / 1000));
    expect(expiresAtSeconds([{ kind: 'status', at: T0 }], { ...policy, ttlMs: { ...policy.ttlMs, status: 0 } })).toBeNull();
  });

  it('toll-free, premium-rate, personal (5XX) and invalid numbers are decided by their range; geographic ones are not', () => {
    expect(rangeDecided('+15005550100')).toMatchObject({ lineType: 'personal', origin: 'free' });
    expect(rangeDecided('+18885551234')).toMatchObject({ lineType: 'tollFree', origin: 'free' });
    expect(rangeDecided('+19005551234')).toMatchObject({ lineType: 'premium', origin: 'free' });
    expect(rangeDecided('+19765551234')).toMatchObject({ lineType: 'unknown', origin: 'free' }); // no such area code
    expect(rangeDecided('+17875551234')).toMatchObject({ origin: 'free' }); // Puerto Rico: not served
    expect(rangeDecided('not a number')).toMatchObject({ origin: 'free' });
    expect(rangeDecided('+13125552000')).toBeNull();
  });
});

/** A paid provider stand-in that counts what it is asked, and answers by the kinds requested. */
function countingProvider(options: { fail?: Set<string>; simulated?: boolean } = {}) {
  const calls: { items: LookupItem[]; opts: LookupOptions }[] = [];
  const provider: SignalProvider = {
    name: 'counting',
    simulated: options.simulated ?? false,
    async lookup(items, opts) {
      calls.push({ items: structuredClone(items), opts: { ...opts } });
      return items.map((item): Signals => {
        const empty: Signals = noSignals(options.simulated ?? false);
        if (options.fail?.has(item.e164)) return { ...empty, lookupError: 'answered 503' };
        return {
          ...empty,
          lineType: opts.skipMobileLookup ? 'unknown' : 'mobile',
          carrier: opts.skipMobileLookup ? null : 'Verizon Wireless',
          lineStatus: opts.tier === 'max' ? 'active' : null,
          nameMatchScore: item.name ? 90 : null,
        };
      });
    },
  };
  const asked = () => calls.reduce((n, c) => n + c.items.length, 0);
  return { provider, calls, asked };
}

const numbers = ['+13125552000', '+13125552001', '+13125552002'];
const std: LookupOptions = { tier: 'standard', skipMobileLookup: false, organizationId: 'org-a' };

describe('cachedProvider', () => {
  it('answers from the cache within TTL (no paid lookup, the same results), and pays again after it', async () => {
    const clock = manualClock();
    clock.set(() => T0);
    const fake = countingProvider();
    const cache = memoryLookupCache();
    const provider = cachedProvider(fake.provider, cache, policy, clock);
    const items = numbers.map((e164) => ({ e164 }));
    const first = await classifyBatch(provider, items, std);
    expect(fake.asked()).toBe(3);
    expect(first.map((r) => r.origin)).toEqual(['paid', 'paid', 'paid']);
    expect(cache.writes[0]!.numbers.map((w) => w.expiresAt)).toEqual([1, 2, 3].map(() => (T0 + 30 * DAY) / 1000));

    clock.set(() => T0 + 30 * DAY - 1);
    const second = await classifyBatch(provider, items, std);
    expect(fake.asked()).toBe(3);
    expect(second.map((r) => r.origin)).toEqual(['cache', 'cache', 'cache']);
    expect(second.map(({ origin: _, ...r }) => r)).toEqual(first.map(({ origin: _, ...r }) => r));
    expect(lookupCountsOf(second)).toEqual({ paid: 0, cached: 3, failed: 0 });

    clock.set(() => T0 + 30 * DAY);
    await provider.lookup(items, std);
    expect(fake.asked()).toBe(6);
  });

  it('asks the provider only for the kinds missing: line status (a day) again while line type (30 days) is fresh', async () => {
    const clock = manualClock();
    clock.set(() => T0);
    const fake = countingProvider();
    const provider = cachedProvider(fake.provider, memoryLookupCache(), policy, clock);
    const max: LookupOptions = { ...std, tier: 'max' };
    const first = await provider.lookup([{ e164: numbers[0]! }], max);
    expect(first[0]).toMatchObject({ lineType: 'mobile', lineStatus: 'active', origin: 'paid' });
    clock.set(() => T0 + 2 * DAY);
    const second = await provider.lookup([{ e164: numbers[0]! }], max);
    expect(fake.calls[1]!.opts).toMatchObject({ tier: 'max', skipMobileLookup: true });
    expect(second[0]).toMatchObject({ lineType: 'mobile', carrier: 'Verizon Wireless', lineStatus: 'active', origin: 'paid' });
    // A standard request after that needs only the line type: cached.
    expect((await provider.lookup([{ e164: numbers[0]! }], std))[0]).toMatchObject({ lineType: 'mobile', lineStatus: null, origin: 'cache' });
    expect(fake.calls).toHaveLength(2);
    // A line type fetched later keeps the entry's status that is still fresh.
    clock.set(() => T0 + 2 * DAY + 1);
    expect((await provider.lookup([{ e164: numbers[0]! }], max))[0]!.origin).toBe('cache');
  });

  it('identity answers: one organization\'s are not reused by another unless sharing is on', async () => {
    const clock = manualClock();
    clock.set(() => T0);
    const named = [{ e164: numbers[0]!, name: { full: 'Ada Lovelace' } }];
    for (const share of [false, true]) {
      const fake = countingProvider();
      const provider = cachedProvider(fake.provider, memoryLookupCache(), { ...policy, shareIdentity: share }, clock);
      await provider.lookup(named, std);
      expect(fake.calls[0]!.items).toEqual(named);
      // Same organization, same name in another spelling: all cached.
      expect((await provider.lookup([{ e164: numbers[0]!, name: { full: 'ada  LOVELACE' } }], std))[0]!.origin).toBe('cache');
      const other = await provider.lookup(named, { ...std, organizationId: 'org-b' });
      if (share) {
        expect(other[0]).toMatchObject({ origin: 'cache', nameMatchScore: 90 });
        expect(fake.calls).toHaveLength(1);
      } else {
        // Only the identity is asked again (no name in the request of the line type, which is cached).
        expect(other[0]).toMatchObject({ origin: 'paid', nameMatchScore: 90, lineType: 'mobile' });
        expect(fake.calls[1]!.items).toEqual(named);
        expect(fake.calls[1]!.opts).toMatchObject({ skipMobileLookup: true, tier: 'standard' });
      }
    }
  });

  it('never caches a failed lookup or a simulated answer', async () => {
    const clock = manualClock();
    clock.set(() => T0);
    const fake = countingProvider({ fail: new Set([numbers[1]!]) });
    const cache = memoryLookupCache();
    const provider = cachedProvider(fake.provider, cache, policy, clock);
    const items = numbers.map((e164) => ({ e164 }));
    const first = await classifyBatch(provider, items, std);
    expect(first[1]).toMatchObject({ answerIntent: 'Unknown', lookupError: 'answered 503' });
    expect(lookupCountsOf(first)).toEqual({ paid: 2, cached: 0, failed: 1 });
    expect([...cache.numbers.keys()]).toEqual([`counting|${numbers[0]}`, `counting|${numbers[2]}`]);
    await provider.lookup(items, std);
    expect(fake.calls[1]!.items).toEqual([{ e164: numbers[1] }]);

    const sim = cachedProvider(simulatorProvider, cache, policy, clock);
    const simulated = await sim.lookup([{ e164: '+13125559000' }], std);
    expect(simulated[0]).toMatchObject({ simulated: true, origin: 'free' });
    expect([...cache.numbers.keys()].some((k) => k.startsWith('simulator|'))).toBe(false);
  });

  it('keeps what it bought when a later provider call of the same batch throws (the chunk is retried)', async () => {
    const clock = manualClock();
    const fake = countingProvider();
    let calls = 0;
    const flaky: SignalProvider = {
      ...fake.provider,
      lookup: async (items, opts) => {
        if (++calls === 2) throw new Error('401 check TWILIO credentials');
        return fake.provider.lookup(items, opts);
      },
    };
    const cache = memoryLookupCache();
    const provider = cachedProvider(flaky, cache, policy, clock);
    // Two groups: the named number misses line type and identity, the other line type only.
    await expect(provider.lookup([{ e164: numbers[0]!, name: { full: 'Ada Lovelace' } }, { e164: numbers[1]! }], std)).rejects.toThrow(/401/);
    expect([...cache.numbers.keys()]).toEqual([`counting|${numbers[0]}`]);
    expect(cache.identities.size).toBe(1);
  });

  it('numbers their range decides, and requests needing nothing paid, never reach the provider', async () => {
    const fake = countingProvider();
    const provider = cachedProvider(fake.provider, memoryLookupCache(), policy, manualClock());
    const results = await classifyBatch(provider, [{ e164: '+18885551234' }, { e164: '+19005551234' }, { e164: '+19765551234' }], std);
    expect(results.map((r) => [r.answerIntent, r.origin])).toEqual([['Non-Mobile', 'free'], ['Non-Mobile', 'free'], ['Unknown', 'free']]);
    const skipped = await provider.lookup([{ e164: numbers[0]! }], { ...std, skipMobileLookup: true });
    expect(skipped[0]).toMatchObject({ lineType: 'unknown', origin: 'free' });
    expect(fake.calls).toHaveLength(0);
    expect(lookupCountsOf(results)).toEqual({ paid: 0, cached: 0, failed: 0 });
  });

  it('screen: answers the range and the cache in one read, leaves the rest; the lookup that follows does not read again', async () => {
    const fake = countingProvider();
    const cache = memoryLookupCache();
    let reads = 0;
    const counted = { ...cache, read: (provider: string, keys: Parameters<typeof cache.read>[1]) => (reads++, cache.read(provider, keys)) };
    const clock = manualClock();
    clock.set(() => T0);
    await cachedProvider(fake.provider, cache, policy, clock).lookup([{ e164: numbers[0]! }], std);
    const provider = cachedProvider(fake.provider, counted, policy, clock);
    const items = [{ e164: numbers[0]! }, { e164: '+18005550100' }, { e164: numbers[1]! }, { e164: numbers[2]! }];
    const screened = await provider.screen!(items, std);
    expect(screened.map((s) => s?.origin)).toEqual(['cache', 'free', undefined, undefined]);
    expect(reads).toBe(1);
    expect(fake.asked()).toBe(1);
    const looked = await provider.lookup([items[2]!], std);
    expect(looked[0]).toMatchObject({ lineType: 'mobile', origin: 'paid' });
    expect(reads).toBe(1);
    // Each screened read is used once: a second lookup of the same number reads the cache (and finds it).
    expect((await provider.lookup([items[2]!], std))[0]).toMatchObject({ origin: 'cache' });
    expect(reads).toBe(2);
    expect(fake.asked()).toBe(2);
  });

  it('the per-provider metric is one embedded-metric-format line', () => {
    const line = lookupMetricsLine('twilio', { paid: 5, cached: 7, failed: 1 }, T0);
    expect(line).toEqual({
      _aws: { Timestamp: T0, CloudWatchMetrics: [{ Namespace: 'PhoneValidation/Lookups', Dimensions: [['Provider']], Metrics: [{ Name: 'LookupsPaid', Unit: 'Count' }, { Name: 'LookupsCached', Unit: 'Count' }, { Name: 'LookupsFailed', Unit: 'Count' }] }] },
      Provider: 'twilio',
      LookupsPaid: 5,
      LookupsCached: 7,
      LookupsFailed: 1,
    });
  });
});
