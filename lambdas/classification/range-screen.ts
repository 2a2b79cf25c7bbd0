import { numberTypeOf } from './normalize';
import { NON_MOBILE_LINE_TYPES } from './rules';
import { lineTypeFromStructure, noSignals, type LineType, type LookupItem, type Signals } from './signals';

// The one range screen: numbers whose range alone decides them never reach a paid provider. A
// number that is not a valid US/CA number has nothing to look up; toll-free, premium, shared-cost,
// personal, pager, fixed-VoIP and landline ranges are Non-Mobile by the rule table's first rule
// (NON_MOBILE_LINE_TYPES) whatever a lookup would add. Free, from the number's structure
// (libphonenumber metadata). Used by the lookup cache in front of every paid provider
// (cached-provider.ts) and as the chain's `offline-ranges` step (chain-provider.ts).

/** The line type the number's range alone gives ('unknown' for most geographic numbers). */
export function structuralLineType(e164: string): LineType {
  return lineTypeFromStructure(numberTypeOf(e164));
}

/** The signals of a number its range decides, or null when only a lookup can tell. */
export function rangeDecided(e164: string): Signals | null {
  const type = numberTypeOf(e164);
  if (type === undefined) return { ...noSignals(), origin: 'free' };
  const lineType = lineTypeFromStructure(type);
  return NON_MOBILE_LINE_TYPES.includes(lineType) ? { ...noSignals(), lineType, origin: 'free' } : null;
}

/** The screen as a chain step: what its range decides, undefined (the next step's) for the rest. */
export const rangeScreen = {
  name: 'offline-ranges',
  async answer(items: LookupItem[]): Promise<(Signals | undefined)[]> {
    return items.map((item) => rangeDecided(item.e164) ?? undefined);
  },
};
