import { parsePhoneNumberFromString, type MetadataJson, type PhoneNumber } from 'libphonenumber-js/core';
import nanpMetadata from './nanp-metadata.max.json';
import { decidingDigitsFor } from './nanp-metadata';

export interface NormalizedNumber {
  e164: string;
  region: 'US' | 'CA';
  /** libphonenumber's getType(), or 'UNKNOWN'. */
  type: string;
}

// Max metadata of the +1 regions only (nanp-subset.ts): the same answers for every +1 number.
const metadata = nanpMetadata as unknown as MetadataJson;

/** What libphonenumber-js (max metadata of +1, default country US) says of an input. */
export interface Analysis {
  valid: boolean;
  e164: string | null;
  region: string | null;
  type: string | null;
}

export function analyzeWithLibphonenumber(raw: string): Analysis {
  const parsed = parsePhoneNumberFromString(raw, 'US', metadata);
  return parsed ? analysisOf(parsed) : { valid: false, e164: null, region: null, type: null };
}

function analysisOf(parsed: PhoneNumber): Analysis {
  const valid = parsed.isValid();
  return { valid, e164: valid ? parsed.number : null, region: valid ? (parsed.country ?? null) : null, type: valid ? (parsed.getType() ?? null) : null };
}

// Fast path. In the NANP metadata every top-level alternative of every pattern (general and per
// type, for all regions of +1) ends in a free run \d{n}, so for a 10-digit national number,
// validity, region and type depend only on its first few digits: per area code, the most that any
// alternative that can apply to it reads (nanp-metadata.ts; 4 for most area codes, up to 7).
// Those answers are memoized by that prefix, each filled by asking libphonenumber-js once.
// Common shapes are read by a regular expression; the form (national, national prefix 1, +1)
// does not matter, as a 10-digit national number whose area code starts with 2-9 is read the same
// in each. Other inputs are parsed by libphonenumber-js (no isValid, no getType) and, when that
// yields such a +1 number, answered from the same memo; anything else gets the full answer.
// An extension ("ext. 12", "x12") does not change validity, region, type or E.164.
const SHAPE = /^\s*(?:\+1|1)?[\s.-]?\(?([2-9]\d{2})\)?[\s.-]?(\d{3})[\s.-]?(\d{4})(?:\s*(?:ext\.?|x)\s*\d{1,6})?\s*$/;
const NATIONAL = /^[2-9]\d{9}$/;
interface PrefixAnswer {
  valid: boolean;
  region: string | null;
  type: string | null;
}
const prefixMemo = new Map<string, PrefixAnswer>();
const INVALID: Analysis = Object.freeze({ valid: false, e164: null, region: null, type: null }) as Analysis;

/** `parsed`: libphonenumber-js's reading of this number when there is one, asked on a memo miss. */
function answerFor(national: string, parsed?: PhoneNumber): Analysis {
  const key = national.slice(0, decidingDigitsFor(national.slice(0, 3)));
  let answer = prefixMemo.get(key);
  if (!answer) {
    const probe = parsed ? analysisOf(parsed) : analyzeWithLibphonenumber(national);
    answer = { valid: probe.valid, region: probe.region, type: probe.type };
    prefixMemo.set(key, answer);
  }
  return answer.valid ? { valid: true, e164: `+1${national}`, region: answer.region, type: answer.type } : INVALID;
}

export function analyze(raw: string): Analysis {
  const m = SHAPE.exec(raw);
  if (m) return answerFor(m[1]! + m[2]! + m[3]!);
  const parsed = parsePhoneNumberFromString(raw, 'US', metadata);
  if (!parsed) return INVALID;
  if (parsed.countryCallingCode === '1' && NATIONAL.test(parsed.nationalNumber)) return answerFor(parsed.nationalNumber, parsed);
  return analysisOf(parsed);
}

// How many times this process has normalized a number: the bench holds "once per number per upload".
let normalizations = 0;
export const normalizationCount = (): number => normalizations;

/**
 * Any common US/CA format → E.164 with region and type, exactly as libphonenumber-js (max
 * metadata) answers. Other NANP territories (Puerto Rico, Guam, the Caribbean …) are refused: the
 * service covers the United States and Canada only.
 */
export function normalizeUsCa(raw: string): NormalizedNumber | null {
  normalizations++;
  if (typeof raw !== 'string' || raw.length > 256) return null;
  const a = analyze(raw);
  if (!a.valid || (a.region !== 'US' && a.region !== 'CA')) return null;
  return { e164: a.e164!, region: a.region, type: a.type ?? 'UNKNOWN' };
}

/**
 * The line type libphonenumber-js gives a number already in E.164 (the providers' structural
 * signal): the same memoized answer as normalizeUsCa's, without normalizing customer input again.
 */
export function numberTypeOf(e164: string): string | undefined {
  const a = analyze(e164);
  return a.valid && (a.region === 'US' || a.region === 'CA') ? (a.type ?? 'UNKNOWN') : undefined;
}
