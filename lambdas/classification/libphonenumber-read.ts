import { parsePhoneNumberFromString, type MetadataJson, type PhoneNumber } from 'libphonenumber-js/core';
import nanpMetadata from './nanp-metadata.max.json';
import { INVALID, type Analysis } from './normalize-core';

// libphonenumber-js with the +1 regions' max metadata: the normalizer's reading of what its scan
// leaves (normalize-core.ts), and the reference the normalizer is proven against.

// Max metadata of the +1 regions only (nanp-subset.ts): the same answers for every +1 number.
const metadata = nanpMetadata as unknown as MetadataJson;
const NATIONAL = /^[2-9]\d{9}$/;

export function analyzeWithLibphonenumber(raw: string): Analysis {
  const parsed = parsePhoneNumberFromString(raw, 'US', metadata);
  return parsed ? analysisOf(parsed) : INVALID;
}

function analysisOf(parsed: PhoneNumber): Analysis {
  const valid = parsed.isValid();
  return { valid, e164: valid ? parsed.number : null, region: valid ? (parsed.country ?? null) : null, type: valid ? (parsed.getType() ?? null) : null };
}

/** The national number libphonenumber-js reads in `raw` when the prefix table answers it, else its full answer. */
export function libphonenumberRead(raw: string): number | Analysis {
  const parsed = parsePhoneNumberFromString(raw, 'US', metadata);
  if (!parsed) return INVALID;
  if (parsed.countryCallingCode === '1' && NATIONAL.test(parsed.nationalNumber)) return Number(parsed.nationalNumber);
  return analysisOf(parsed);
}
