import { numberTypeOf } from './normalize';
import { lineTypeFromStructure, noSignals, type LineType, type Signals } from './signals';

// Numbers whose range alone decides them never reach a paid provider: toll-free and premium-rate
// ranges are Non-Mobile by the rule table whatever a lookup says, and a number that is not a valid
// US/CA number has nothing to look up. Free, from the number's structure (libphonenumber metadata).

const DECIDED: ReadonlySet<LineType> = new Set<LineType>(['tollFree', 'premium']);

/** The line type the number's range alone gives ('unknown' for most geographic numbers). */
export function structuralLineType(e164: string): LineType {
  return lineTypeFromStructure(numberTypeOf(e164));
}

/** The signals of a number its range decides, or null when only a lookup can tell. */
export function rangeDecided(e164: string): Signals | null {
  const type = numberTypeOf(e164);
  const lineType = type === undefined ? 'unknown' : lineTypeFromStructure(type);
  if (type !== undefined && !DECIDED.has(lineType)) return null;
  return { ...noSignals(), lineType, origin: 'free' };
}
