import { libphonenumberRead } from './libphonenumber-read';
import { analyzeWith, normalizeWith, numberTypeWith, type Analysis, type NormalizedNumber } from './normalize-core';

// The normalizer for callers that answer at once (a file's rows, the providers): libphonenumber-js
// loaded with it for the inputs the scan leaves. normalize-on-demand.ts is the same for a caller
// that can wait for it to load (one number per request).

export type { Analysis, NormalizedNumber } from './normalize-core';
export { libphonenumberCount, normalizationCount, scanCount, typeReadCount } from './normalize-core';
export { analyzeWithLibphonenumber, libphonenumberRead } from './libphonenumber-read';

export function analyze(raw: string): Analysis {
  return analyzeWith(raw, libphonenumberRead);
}

/**
 * Any common US/CA format → E.164 with region and type, exactly as libphonenumber-js (max
 * metadata) answers. Other NANP territories (Puerto Rico, Guam, the Caribbean …) are refused: the
 * service covers the United States and Canada only.
 */
export function normalizeUsCa(raw: string): NormalizedNumber | null {
  return normalizeWith(raw, libphonenumberRead);
}

/**
 * The line type libphonenumber-js gives a number already in E.164 (the providers' structural
 * signal): the same answer as normalizeUsCa's. A number normalizeUsCa wrote is not read again: its
 * ten digits index the prefix table directly, as they did when it was normalized. Anything else is
 * read as customer input.
 */
export function numberTypeOf(e164: string): string | undefined {
  return numberTypeWith(e164, libphonenumberRead);
}
