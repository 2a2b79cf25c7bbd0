import { describe, expect, it } from 'vitest';
import { chainFromSpec, chainProvider, offlineRanges, parseChain, type SignalStage } from '../../../lambdas/classification/chain-provider';
import { classifyBatch, createProviderFromEnv, simulatorProvider } from '../../../lambdas/classification';
import { noSignals, type LookupItem, type Signals } from '../../../lambdas/classification/signals';
import type { SignalProvider } from '../../../lambdas/classification/provider';
import { parseConfig } from '../../../lambdas/platform/config';
import { rangeDecided } from '../../../lambdas/classification/range-screen';

const opts = { tier: 'standard', skipMobileLookup: false } as const;

/** A paid provider that records what it was asked and answers mobile with a marker carrier. */
function recording(): SignalProvider & { asked: string[][] } {
  const asked: string[][] = [];
  return {
    name: 'paid',
    simulated: false,
    asked,
    async lookup(items: LookupItem[]) {
      asked.push(items.map((i) => i.e164));
      return items.map((i): Signals => ({ ...noSignals(), lineType: 'mobile', carrier: `paid:${i.e164}` }));
    },
  };
}

describe('offline-ranges: numbers their range decides never reach the paid provider', () => {
  it('answers toll-free, premium and invalid numbers, and leaves geographic numbers to the next step', async () => {
    const items = ['+18005550100', '+18885550100', '+19005550100', '+12125550143', '+14155550101', '+11235550100', '+44207946000'].map((e164) => ({ e164 }));
    const answers = await offlineRanges.answer(items, opts);
    expect(answers.map((a) => a?.lineType)).toEqual(['tollFree', 'tollFree', 'premium', undefined, undefined, 'unknown', 'unknown']);
  });

  it('is the one range screen: the same answers as the lookup cache applies in front of a paid provider', async () => {
    const items = ['+15005550100', '+18005550100', '+12125550143', '+11235550100'].map((e164) => ({ e164 }));
    expect(await offlineRanges.answer(items, opts)).toEqual(items.map((i) => rangeDecided(i.e164) ?? undefined));
  });

  it('screen: the steps, then the provider\'s own screen; nothing paid', async () => {
    const paid = { ...recording(), screen: async (items: LookupItem[]) => items.map((i) => (i.e164.endsWith('43') ? { ...noSignals(), carrier: 'cached' } : undefined)) };
    const screened = await chainProvider([offlineRanges], paid).screen!(['+18005550100', '+12125550143', '+14155550101'].map((e164) => ({ e164 })), opts);
    expect(screened.map((s) => s?.carrier ?? s?.lineType)).toEqual(['tollFree', 'cached', undefined]);
    expect(paid.asked).toEqual([]);
  });
});

describe('chainProvider', () => {
  it('asks the provider once for what the steps left, in order, and answers every item in its place', async () => {
    const paid = recording();
    const chained = chainProvider([offlineRanges], paid);
    const items = ['+12125550143', '+18005550100', '+14155550101', '+19005550100', '+13105550100'].map((e164) => ({ e164, name: { full: 'Ada Lovelace' } }));
    const signals = await chained.lookup(items, opts);
    expect(paid.asked).toEqual([['+12125550143', '+14155550101', '+13105550100']]);
    expect(signals.map((s) => s.carrier ?? s.lineType)).toEqual(['paid:+12125550143', 'tollFree', 'paid:+14155550101', 'premium', 'paid:+13105550100']);
    expect(chained.name).toBe('paid');
  });

  it('does not call the provider when the steps answered everything, nor for an empty batch', async () => {
    const paid = recording();
    const chained = chainProvider([offlineRanges], paid);
    expect(await chained.lookup([{ e164: '+18005550100' }], opts)).toHaveLength(1);
    expect(await chained.lookup([], opts)).toEqual([]);
    expect(paid.asked).toEqual([]);
  });

  it('runs steps in order: a later step sees only what earlier ones left', async () => {
    const seenBySecond: string[][] = [];
    const first: SignalStage = { name: 'first', answer: async (items) => items.map((i) => (i.e164.endsWith('1') ? { ...noSignals(), carrier: 'first' } : undefined)) };
    const second: SignalStage = {
      name: 'second',
      answer: async (items) => {
        seenBySecond.push(items.map((i) => i.e164));
        return items.map((i) => (i.e164.endsWith('2') ? { ...noSignals(), carrier: 'second' } : undefined));
      },
    };
    const paid = recording();
    const out = await chainProvider([first, second], paid).lookup(['+12125550101', '+12125550102', '+12125550103'].map((e164) => ({ e164 })), opts);
    expect(out.map((s) => s.carrier)).toEqual(['first', 'second', 'paid:+12125550103']);
    expect(seenBySecond).toEqual([['+12125550102', '+12125550103']]);
  });

  it('refuses a provider that answers a different number of items', async () => {
    const short: SignalProvider = { name: 'short', simulated: false, lookup: async () => [] };
    await expect(chainProvider([offlineRanges], short).lookup([{ e164: '+12125550143' }], opts)).rejects.toThrow(/answered 0 of 1/);
  });

  it('without steps is the provider itself', () => {
    const paid = recording();
    expect(chainProvider([], paid)).toBe(paid);
    expect(chainFromSpec('paid', paid)).toBe(paid);
  });

  it('range-decided numbers keep their Answer Intent; with a name their identity is Unknown (no lookup made)', async () => {
    const direct = await classifyBatch(simulatorProvider, [{ e164: '+18005551234' }], opts);
    const chained = await classifyBatch(chainFromSpec('offline-ranges,paid', simulatorProvider), [{ e164: '+18005551234', name: { full: 'Ada Lovelace' } }, { e164: '+12125550100' }], opts);
    expect(direct[0]!.answerIntent).toBe('Non-Mobile');
    expect(chained[0]).toMatchObject({ answerIntent: 'Non-Mobile', identity: 'Unknown', simulated: false });
    expect(chained[1]).toMatchObject({ answerIntent: 'Likely Answer', simulated: true });
  });
});

describe('CLASSIFICATION_CHAIN', () => {
  it('accepts the documented forms', () => {
    expect(parseChain('paid')).toEqual(['paid']);
    expect(parseChain('offline-ranges,paid')).toEqual(['offline-ranges', 'paid']);
    expect(parseChain(' offline-ranges , paid ')).toEqual(['offline-ranges', 'paid']);
  });
  it.each([
    ['offline,paid', /'offline' is not a step/],
    ['paid,offline-ranges', /must end with paid/],
    ['offline-ranges', /must end with paid/],
    ['offline-ranges,offline-ranges,paid', /names a step twice/],
    ['offline-ranges,,paid', /'' is not a step/],
    ['__proto__,paid', /'__proto__' is not a step/],
  ])('refuses %s', (spec, message) => {
    expect(() => parseChain(spec)).toThrow(message);
  });
  it('is applied by createProviderFromEnv (default: the provider alone)', async () => {
    expect(parseConfig({}).CLASSIFICATION_CHAIN).toBe('paid');
    expect(await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'simulator' }))).toBe(simulatorProvider);
    const chained = await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'simulator', CLASSIFICATION_CHAIN: 'offline-ranges,paid' }));
    expect(chained).not.toBe(simulatorProvider);
    expect((await chained.lookup([{ e164: '+18005550100' }], opts))[0]!.simulated).toBe(false);
    await expect(createProviderFromEnv(parseConfig({ CLASSIFICATION_CHAIN: 'cache,paid' }))).rejects.toThrow(/CLASSIFICATION_CHAIN: 'cache' is not a step/);
  });
});
