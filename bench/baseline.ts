import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** The baseline the normalizer is held to: libphonenumber-js parse + isValid, US or CA only. */
export function baselineUsCa(raw: string): string | null {
  const parsed = parsePhoneNumberFromString(raw, 'US');
  if (!parsed || !parsed.isValid()) return null;
  return parsed.country === 'US' || parsed.country === 'CA' ? parsed.number : null;
}
