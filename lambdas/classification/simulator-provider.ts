import { createHash } from 'node:crypto';
import { noSignals, type LineType, type LookupItem, type LookupOptions, type Signals } from './signals';
import type { SignalProvider } from './provider';
import { offlineProvider } from './offline-provider';

/**
 * Reserved fictional numbers (exchange 555, lines 0100–0199, any area code) give fixed outcomes,
 * like a payment provider's test cards: the tens digit of the line picks the Answer Intent, the
 * units digit the identity score (when a name is supplied).
 */
export const RESERVED_OUTCOMES: Record<string, Pick<Signals, 'lineType' | 'lineStatus' | 'callScreening'>> = {
  '0': { lineType: 'mobile', lineStatus: 'active', callScreening: false }, // Likely Answer
  '1': { lineType: 'mobile', lineStatus: 'active', callScreening: true }, // Likely Call Screening
  '2': { lineType: 'mobile', lineStatus: 'unreachable', callScreening: false }, // Likely Voicemail
  '3': { lineType: 'landline', lineStatus: 'active', callScreening: null }, // Non-Mobile
  '4': { lineType: 'unknown', lineStatus: null, callScreening: null }, // Unknown
};
/** Units digit → identity score: 0 Very High, 1 High, 2 Medium, 3 Low, 4–9 no name signal (Unknown). */
export const RESERVED_SCORES: (number | null)[] = [95, 70, 50, 10, null, null, null, null, null, null];

const CARRIERS = ['Verizon Wireless', 'T-Mobile USA', 'AT&T Wireless', 'US Cellular', 'Rogers', 'Bell Mobility'];
const LINE_TYPES: LineType[] = ['mobile', 'mobile', 'mobile', 'mobile', 'landline', 'nonFixedVoip', 'fixedVoip', 'unknown'];

export function reservedOutcome(e164: string): { outcome: (typeof RESERVED_OUTCOMES)[string]; score: number | null } | null {
  const m = /^\+1\d{3}555(01)(\d)(\d)$/.exec(e164);
  if (!m) return null;
  const outcome = RESERVED_OUTCOMES[m[2]!];
  return outcome ? { outcome, score: RESERVED_SCORES[Number(m[3])] ?? null } : null;
}

/**
 * Deterministic signals from a hash of the number, for development, demos and load tests. Every
 * result it produces is flagged `simulated`. No network, no cost.
 */
export const simulatorProvider: SignalProvider = {
  name: 'simulator',
  simulated: true,
  async lookup(items: LookupItem[], opts: LookupOptions) {
    const structure = await offlineProvider.lookup(items, opts);
    return items.map((item, i): Signals => {
      const hasName = Boolean(item.name && (item.name.full || (item.name.first && item.name.last)));
      const reserved = reservedOutcome(item.e164);
      if (reserved) {
        return { ...noSignals(true), ...reserved.outcome, carrier: 'Simulated Wireless', nameMatchScore: hasName ? reserved.score : null };
      }
      const d = createHash('sha256').update(item.e164).digest();
      // Special ranges keep what their structure says; skip_mobile_lookup means structure only.
      const structural = structure[i]!.lineType;
      const lineType = structural !== 'unknown' || opts.skipMobileLookup ? structural : LINE_TYPES[d[0]! % LINE_TYPES.length]!;
      const statuses = ['active', 'active', 'active', 'unreachable', 'inactive'] as const;
      return {
        ...noSignals(true),
        lineType,
        carrier: lineType === 'unknown' ? null : CARRIERS[d[1]! % CARRIERS.length]!,
        lineStatus: opts.tier === 'max' ? statuses[d[2]! % statuses.length]! : null,
        callScreening: d[3]! % 4 === 0,
        callerName: null,
        nameMatchScore: hasName && d[4]! % 5 !== 0 ? d[5]! % 101 : null,
      };
    });
  },
};
