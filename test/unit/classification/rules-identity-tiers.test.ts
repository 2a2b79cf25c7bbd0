import { describe, expect, it } from 'vitest';
import { ANSWER_INTENTS, ANSWER_INTENT_RULES, IDENTITY_BANDS, TIERS, answerIntentOf, classifyBatch, deriveStatus, simulatorProvider, offlineProvider } from '../../../lambdas/classification';
import { bandFromScore, bandFromVerdict, identityOf, matchNames, nameTokens } from '../../../lambdas/classification/identity';
import { LOW_ACTIVITY_MAX } from '../../../lambdas/classification/rules';
import { noSignals, type Signals } from '../../../lambdas/classification/signals';

const base: Signals = { ...noSignals(), lineType: 'mobile' };

describe('Answer Intent rule table', () => {
  const cases: [string, Partial<Signals>, string][] = [
    ['non-mobile-range', { lineType: 'landline' }, 'Non-Mobile'],
    ['non-mobile-range', { lineType: 'tollFree', lineStatus: 'active' }, 'Non-Mobile'],
    ['non-mobile-range', { lineType: 'fixedVoip' }, 'Non-Mobile'],
    ['disconnected', { lineType: 'mobile', lineStatus: 'inactive' }, 'Unknown'],
    ['unreachable', { lineType: 'mobile', lineStatus: 'unreachable' }, 'Likely Voicemail'],
    ['screening', { lineType: 'mobile', callScreening: true }, 'Likely Call Screening'],
    ['app-voip', { lineType: 'nonFixedVoip' }, 'Likely Call Screening'],
    ['low-activity', { lineType: 'mobile', activityScore: 30 }, 'Unknown'],
    ['low-activity', { lineType: 'mobile', activityScore: 0, callScreening: true }, 'Unknown'],
    ['low-activity', { lineType: 'nonFixedVoip', activityScore: 12 }, 'Unknown'],
    ['app-voip', { lineType: 'nonFixedVoip', activityScore: 31 }, 'Likely Call Screening'],
    ['voip-unspecified', { lineType: 'voip' }, 'Unknown'],
    ['voip-unspecified', { lineType: 'voip', activityScore: 95, ported: true }, 'Unknown'],
    ['mobile', { lineType: 'mobile', lineStatus: 'active', callScreening: false }, 'Likely Answer'],
    // Trestle's middle band is "not enough signals": no more than a provider without a score says.
    ['mobile', { lineType: 'mobile', activityScore: 31 }, 'Likely Answer'],
    ['mobile', { lineType: 'mobile', activityScore: 50 }, 'Likely Answer'],
    ['mobile', { lineType: 'mobile', activityScore: 100, ported: true }, 'Likely Answer'],
    ['no-signal', { lineType: 'unknown' }, 'Unknown'],
    ['no-signal', { lineType: 'unknown', activityScore: 90 }, 'Unknown'],
  ];
  it.each([
    ['a landline, however quiet, stays Non-Mobile', { lineType: 'landline', activityScore: 0 }, 'non-mobile-range'],
    ['a real-time unreachable status wins over a low score', { lineType: 'mobile', lineStatus: 'unreachable', activityScore: 5 }, 'unreachable'],
    ['a low score outranks screening', { lineType: 'mobile', callScreening: true, activityScore: 20 }, 'low-activity'],
    ['screening with a high score is still screening', { lineType: 'mobile', callScreening: true, activityScore: 80 }, 'screening'],
  ] as [string, Partial<Signals>, string][])('%s', (_, signals, rule) => {
    expect(answerIntentOf({ ...base, ...signals }).rule).toBe(rule);
  });
  it("the low band ends at Trestle's documented 30", () => {
    expect(LOW_ACTIVITY_MAX).toBe(30);
    expect(answerIntentOf({ ...base, activityScore: LOW_ACTIVITY_MAX }).intent).toBe('Unknown');
    expect(answerIntentOf({ ...base, activityScore: LOW_ACTIVITY_MAX + 1 }).intent).toBe('Likely Answer');
  });
  it.each(cases)('rule %s', (rule, signals, intent) => {
    expect(answerIntentOf({ ...base, ...signals })).toEqual({ intent, rule });
  });

  it('every rule is exercised above and yields a known value', () => {
    expect(new Set(cases.map((c) => c[0]))).toEqual(new Set(ANSWER_INTENT_RULES.map((r) => r.id)));
    for (const rule of ANSWER_INTENT_RULES) expect(ANSWER_INTENTS).toContain(rule.then);
  });
});

describe('the nine tiers', () => {
  const expected: Record<string, Record<string, string>> = {
    'Likely Answer': { 'Very High': '1 - Likely Right-Party Answer', High: '1 - Likely Right-Party Answer', Medium: '1 - Likely Right-Party Answer', Low: '8 - Likely Wrong Number', Unknown: '2 - Likely Answer' },
    'Likely Call Screening': { 'Very High': '3 - Likely Right-Party Call Screening', High: '3 - Likely Right-Party Call Screening', Medium: '3 - Likely Right-Party Call Screening', Low: '8 - Likely Wrong Number', Unknown: '4 - Likely Call Screening' },
    'Likely Voicemail': { 'Very High': '5 - Likely Right-Party Voicemail', High: '5 - Likely Right-Party Voicemail', Medium: '5 - Likely Right-Party Voicemail', Low: '8 - Likely Wrong Number', Unknown: '6 - Likely Voicemail' },
    // Low replaces every Answer Intent, Non-Mobile and Unknown included (the spec's derivation, read literally).
    'Non-Mobile': { 'Very High': '7 - Non-Mobile', High: '7 - Non-Mobile', Medium: '7 - Non-Mobile', Low: '8 - Likely Wrong Number', Unknown: '7 - Non-Mobile' },
    Unknown: { 'Very High': 'Unknown', High: 'Unknown', Medium: 'Unknown', Low: '8 - Likely Wrong Number', Unknown: 'Unknown' },
  };
  for (const ai of ANSWER_INTENTS) {
    for (const band of IDENTITY_BANDS) {
      it(`${ai} × ${band}`, () => {
        const tier = deriveStatus(ai, band);
        expect(tier).toBe(expected[ai]![band]);
        expect(TIERS).toContain(tier);
      });
    }
  }
  it('without identity the status is the Answer Intent value', () => {
    for (const ai of ANSWER_INTENTS) expect(deriveStatus(ai, null)).toBe(ai);
  });
});

describe('identity', () => {
  it('normalizes case, accents and punctuation', () => {
    expect(nameTokens("  JOSÉ  O'Brien-Núñez ")).toEqual(['jose', 'o', 'brien', 'nunez']);
  });
  it.each([
    [{ full: 'Ada Lovelace' }, 'ADA LOVELACE', 'Very High'],
    [{ full: 'Lovelace, Ada' }, 'Ada King Lovelace', 'Very High'], // word order, middle name
    [{ first: 'Bob', last: 'Smith' }, 'Robert Smith', 'High'], // nickname
    [{ first: 'Liz', last: 'Taylor' }, 'Elizabeth R Taylor', 'High'],
    [{ full: 'A. Lovelace' }, 'Ada Lovelace', 'High'], // initial
    [{ full: 'Charles Lovelace' }, 'Ada Lovelace', 'Medium'], // same family name
    [{ full: 'Grace Hopper' }, 'Ada Lovelace', 'Low'],
    [{ full: 'Zoë Ångström' }, 'zoe angstrom', 'Very High'],
  ] as const)('%j vs %s → %s', (supplied, subscriber, band) => {
    expect(matchNames(supplied, subscriber)).toBe(band);
  });
  it('uses a provider score when there is one, and says Unknown without any signal', () => {
    expect([95, 70, 45, 10].map(bandFromScore)).toEqual(['Very High', 'High', 'Medium', 'Low']);
    expect(identityOf({ full: 'Ada' }, { nameMatchScore: null, callerName: null })).toBe('Unknown');
    expect(identityOf(undefined, { nameMatchScore: 99, callerName: null })).toBeNull();
    expect(identityOf({ first: 'Ada' }, { nameMatchScore: 99, callerName: null })).toBeNull(); // half a name is no name
  });
  it("uses a provider's yes/no verdict (Trestle) after a score and before a subscriber name", () => {
    expect([true, false].map(bandFromVerdict)).toEqual(['High', 'Low']);
    expect(identityOf({ full: 'Ada Lovelace' }, { nameMatchScore: null, nameMatch: true, callerName: 'Grace Hopper' })).toBe('High');
    expect(identityOf({ full: 'Ada Lovelace' }, { nameMatchScore: null, nameMatch: false, callerName: 'Ada Lovelace' })).toBe('Low');
    expect(identityOf({ full: 'Ada Lovelace' }, { nameMatchScore: 90, nameMatch: false, callerName: null })).toBe('Very High');
    expect(identityOf({ full: 'Ada Lovelace' }, { nameMatchScore: null, nameMatch: null, callerName: 'ADA LOVELACE' })).toBe('Very High');
    expect(identityOf(undefined, { nameMatchScore: null, nameMatch: true, callerName: null })).toBeNull();
  });
});

describe('providers', () => {
  const opts = { tier: 'standard', skipMobileLookup: false } as const;
  it('the simulator gives the documented fixed outcome for every reserved number', async () => {
    const intents = ['Likely Answer', 'Likely Call Screening', 'Likely Voicemail', 'Non-Mobile', 'Unknown'];
    const bands = ['Very High', 'High', 'Medium', 'Low', 'Unknown'];
    const items = intents.flatMap((_, t) => bands.map((_, u) => ({ e164: `+1212555${`01${t}${u}`}`, name: { full: 'Ada Lovelace' } })));
    const results = await classifyBatch(simulatorProvider, items, opts);
    results.forEach((r, i) => {
      expect(r.answerIntent, items[i]!.e164).toBe(intents[Math.floor(i / 5)]);
      expect(r.identity, items[i]!.e164).toBe(bands[i % 5]);
      expect(r.simulated).toBe(true);
    });
    const noName = await classifyBatch(simulatorProvider, [{ e164: '+12125550100' }], opts);
    expect(noName[0]).toMatchObject({ identity: null, status: 'Likely Answer' });
  });

  it('the simulator is deterministic, and the offline provider honest about what structure cannot tell', async () => {
    const items = [{ e164: '+14155550123' }, { e164: '+18005550123' }];
    expect(await classifyBatch(simulatorProvider, items, opts)).toEqual(await classifyBatch(simulatorProvider, items, opts));
    const offline = await classifyBatch(offlineProvider, items, opts);
    expect(offline.map((r) => r.answerIntent)).toEqual(['Unknown', 'Non-Mobile']);
    expect(offline.every((r) => !r.simulated)).toBe(true);
  });
});
