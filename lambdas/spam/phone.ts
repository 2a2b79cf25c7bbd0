import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export interface ParsedPhone {
  e164: string;
  region: 'US' | 'CA';
  /** libphonenumber's getType(): MOBILE, FIXED_LINE, FIXED_LINE_OR_MOBILE, VOIP, TOLL_FREE, … or UNKNOWN. */
  type: string;
}

/**
 * Normalizes a US/CA number to E.164, or null when it is unparseable, invalid or elsewhere.
 * Stand-in for the classification engine's `normalizeUsCa` (lambdas/classification) until it lands;
 * same contract, so switching is a one-line import change.
 */
export function normalizeUsCa(raw: string): ParsedPhone | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  const phone = parsePhoneNumberFromString(raw.trim(), 'US');
  if (!phone || !phone.isValid()) return null;
  if (phone.country !== 'US' && phone.country !== 'CA') return null;
  return { e164: phone.number, region: phone.country, type: phone.getType() ?? 'UNKNOWN' };
}

// North American numbering does not tell mobiles from landlines, so most numbers are
// FIXED_LINE_OR_MOBILE; those may be texted. Types that cannot receive a text (landlines, toll-free
// and premium ranges, pagers, voicemail-only access numbers) or whose type is unknown are call-only.
const SMS_CAPABLE_TYPES = new Set(['MOBILE', 'FIXED_LINE_OR_MOBILE', 'VOIP', 'PERSONAL_NUMBER']);

export const isSmsCapable = (type: string): boolean => SMS_CAPABLE_TYPES.has(type);
