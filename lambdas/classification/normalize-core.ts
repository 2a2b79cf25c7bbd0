import prefixes from './nanp-prefixes.json';
import { loadPrefixTable, type PrefixTable, type PrefixTableJson } from './nanp-prefix-table';
import { NO_NUMBER, SEVEN_DIGITS, nationalAt, scanNanpAt, scannedDigits } from './scan-nanp';

// The normalizer without libphonenumber-js: the scan, the prefix table and the counters. What the
// scan leaves (inputs it cannot prove the answer of: none of the bench's 1,000,000 mixed inputs)
// is read by a SlowRead, libphonenumber-js's (libphonenumber-read.ts), which normalize.ts imports
// for callers that must answer at once and normalize-on-demand.ts loads on first need, so that a
// function normalizing one number per request does not carry 52 KB it almost never runs.

export interface NormalizedNumber {
  e164: string;
  region: 'US' | 'CA';
  /** libphonenumber's getType(), or 'UNKNOWN'. */
  type: string;
}

/** What libphonenumber-js (max metadata of +1, default country US) says of an input. */
export interface Analysis {
  valid: boolean;
  e164: string | null;
  region: string | null;
  type: string | null;
}

/** libphonenumber-js's reading of an input the scan left: the national number the prefix table answers, or its full answer. */
export type SlowRead = (raw: string) => number | Analysis;

/** What normalizeWith answers when the input needs libphonenumber-js and no SlowRead was given. */
export const NEEDS_LIBPHONENUMBER: unique symbol = Symbol('needs libphonenumber-js');

// Fast path. In the NANP metadata every top-level alternative of every pattern (general and per
// type, for all regions of +1) ends in a free run \d{n}, so for a 10-digit national number,
// validity, region and type depend only on its first few digits: per area code, the most that any
// alternative that can apply to it reads (nanp-metadata.ts; 4 for most area codes, up to 7).
// libphonenumber-js's answer for every such prefix is stored (nanp-prefix-table.ts), so no number
// asks it again. The shapes customer lists hold are read by scan-nanp.ts, one pass over char codes
// without intermediate strings; the form (national, national prefix 1, +1) does not matter, as a
// 10-digit national number whose area code starts with 2-9 is read the same in each. The same pass
// answers most invalid inputs (no number, too few or too many digits, another calling code): where
// no national number libphonenumber-js could make of the digits can be valid (scan-nanp.ts rule 6).
// Other inputs are parsed by libphonenumber-js (no isValid, no getType) and, when that yields such
// a +1 number, answered from the same table; anything else gets the full answer. An extension does
// not change validity, region, type or E.164.
// Decoded at the first number normalized, once per container, not at import: a function that
// imports this module without normalizing on its hot request (the spam API's list, a recovery run
// that finds nothing) never decodes the 15 KB table (docs/performance.md, "Cold imports, sixth step").
interface PrefixAnswer {
  valid: boolean;
  region: string | null;
  type: string | null;
  /** What normalizeUsCa answers: region US or CA, type or 'UNKNOWN'; null for anything else. */
  usCa: { region: 'US' | 'CA'; type: string } | null;
}
interface PrefixAnswers {
  table: PrefixTable;
  answers: PrefixAnswer[];
}
let prefixAnswers: PrefixAnswers | undefined;
function decodePrefixAnswers(): PrefixAnswers {
  const table = loadPrefixTable(prefixes as unknown as PrefixTableJson);
  const answers = table.classes.map(({ valid, region, type }): PrefixAnswer => ({
    valid,
    region,
    type,
    usCa: valid && (region === 'US' || region === 'CA') ? { region, type: type ?? 'UNKNOWN' } : null,
  }));
  const decoded = { table, answers };
  prefixAnswers = decoded;
  return decoded;
}
export const INVALID: Analysis = Object.freeze({ valid: false, e164: null, region: null, type: null }) as Analysis;

/**
 * '+1' and the 10 digits of `national`. Converting the number itself to a string (a double: it
 * exceeds 2^31) took half the fast path's time; this works on two 5-digit halves.
 */
function e164Of(national: number): string {
  const hi = Math.floor(national / 1e5);
  const lo = national - hi * 1e5;
  return String.fromCharCode(
    43, 49,
    48 + Math.floor(hi / 1e4), 48 + (Math.floor(hi / 1e3) % 10), 48 + (Math.floor(hi / 100) % 10), 48 + (Math.floor(hi / 10) % 10), 48 + (hi % 10),
    48 + Math.floor(lo / 1e4), 48 + (Math.floor(lo / 1e3) % 10), 48 + (Math.floor(lo / 100) % 10), 48 + (Math.floor(lo / 10) % 10), 48 + (lo % 10),
  );
}

/** '+1' and the 10 digits at `at` of `digits`: no arithmetic on the 10-digit number (see classOfDigits). */
function e164At(digits: Uint8Array, at: number): string {
  return String.fromCharCode(
    43, 49,
    48 + digits[at]!, 48 + digits[at + 1]!, 48 + digits[at + 2]!, 48 + digits[at + 3]!, 48 + digits[at + 4]!,
    48 + digits[at + 5]!, 48 + digits[at + 6]!, 48 + digits[at + 7]!, 48 + digits[at + 8]!, 48 + digits[at + 9]!,
  );
}

/** `national`: 10 digits, area code 2-9xx. */
const answerFor = (national: number): PrefixAnswer => {
  const { table, answers } = prefixAnswers ?? decodePrefixAnswers();
  return answers[table.classOf(national)]!;
};

/** The answer for the 10 digits at `at` of `digits`, area code 2-9xx. */
const answerAt = (digits: Uint8Array, at: number): PrefixAnswer => {
  const { table, answers } = prefixAnswers ?? decodePrefixAnswers();
  return answers[table.classOfDigits(digits, at)]!;
};

// How many times this process has normalized a number: the bench holds "once per number per upload".
let normalizations = 0;
export const normalizationCount = (): number => normalizations;
// How many times this process has read a number's text (scan-nanp.ts, then libphonenumber-js for
// what it leaves), how many of those it handed to libphonenumber-js, and how many types it gave of
// numbers already in E.164 from the table alone: the bench's scans_per_number,
// normalize_libphonenumber_share and type_reads_per_number.
let scans = 0;
let handedOn = 0;
let typeReads = 0;
export const scanCount = (): number => scans;
export const libphonenumberCount = (): number => handedOn;
export const typeReadCount = (): number => typeReads;

/** The rest of a read the scan left: libphonenumber-js's. */
function slowly(raw: string, slow: SlowRead): number | Analysis {
  handedOn++;
  return slow(raw);
}

/**
 * One read of `raw`: where in scannedDigits the national number the prefix table answers starts
 * (read it before the next scan), or the full answer (INVALID where the scan proved no number,
 * libphonenumber-js's through `slow` where it left the input), or NEEDS_LIBPHONENUMBER without a
 * SlowRead.
 */
function read(raw: string, slow: SlowRead | null): number | Analysis | typeof NEEDS_LIBPHONENUMBER {
  scans++;
  const at = scanNanpAt(raw);
  if (at >= 0) {
    if (at < SEVEN_DIGITS) return at;
    const local = localAnalysis(at - SEVEN_DIGITS);
    if (local) return local;
  } else if (at === NO_NUMBER) return INVALID;
  return slow ? slowAnalysis(raw, slow) : NEEDS_LIBPHONENUMBER;
}

/** The answer for the 7-digit national number at `at` of scannedDigits (scan-nanp.ts rule 7), or null where the table has none. */
function localAnalysis(at: number): Analysis | null {
  const { table, answers } = prefixAnswers ?? decodePrefixAnswers();
  const id = table.classOfLocal(scannedDigits, at);
  if (id < 0) return null;
  const a = answers[id]!;
  if (!a.valid) return INVALID;
  const d = scannedDigits;
  const e164 = String.fromCharCode(43, 49, 48 + d[at]!, 48 + d[at + 1]!, 48 + d[at + 2]!, 48 + d[at + 3]!, 48 + d[at + 4]!, 48 + d[at + 5]!, 48 + d[at + 6]!);
  return { valid: true, e164, region: a.region, type: a.type };
}

/** libphonenumber-js's full answer for an input the scan left (the prefix table's, where it gives a national number it answers). */
function slowAnalysis(raw: string, slow: SlowRead): Analysis {
  const national = slowly(raw, slow);
  if (typeof national !== 'number') return national;
  const a = answerFor(national);
  return a.valid ? { valid: true, e164: e164Of(national), region: a.region, type: a.type } : INVALID;
}

export function analyzeWith(raw: string, slow: SlowRead): Analysis {
  const at = read(raw, slow) as number | Analysis;
  if (typeof at !== 'number') return at;
  const a = answerAt(scannedDigits, at);
  return a.valid ? { valid: true, e164: e164At(scannedDigits, at), region: a.region, type: a.type } : INVALID;
}

function usCaOf(a: Analysis): NormalizedNumber | null {
  return a.valid && (a.region === 'US' || a.region === 'CA') ? { e164: a.e164!, region: a.region, type: a.type ?? 'UNKNOWN' } : null;
}

/** normalizeUsCa (normalize.ts) with `slow` reading what the scan leaves; without one, NEEDS_LIBPHONENUMBER for such an input. */
export function normalizeWith(raw: string, slow: SlowRead): NormalizedNumber | null;
export function normalizeWith(raw: string, slow: SlowRead | null): NormalizedNumber | null | typeof NEEDS_LIBPHONENUMBER;
export function normalizeWith(raw: string, slow: SlowRead | null): NormalizedNumber | null | typeof NEEDS_LIBPHONENUMBER {
  normalizations++;
  if (typeof raw !== 'string' || raw.length > 256) return null;
  const at = read(raw, slow);
  if (typeof at !== 'number') return at === NEEDS_LIBPHONENUMBER ? at : usCaOf(at);
  const usCa = answerAt(scannedDigits, at).usCa;
  return usCa ? { e164: e164At(scannedDigits, at), region: usCa.region, type: usCa.type } : null;
}

/** What usCaNationalWith answers for an input that is not a valid US/CA number. */
export const NOT_US_CA = -1;

/**
 * normalizeWith's answer as the national number alone, its E.164 being '+1' and these digits
 * (e164OfNational), or NOT_US_CA: what create's planner keeps of a cell, with no string or object
 * made for it; the same one normalization, counted as normalizeWith counts it. Ten digits with the
 * area code 2-9xx, but for what libphonenumber-js reads as valid with fewer (it takes '+13101234'
 * for a US number): those are their digits as written, never beginning with 0.
 */
export function usCaNationalWith(raw: string, slow: SlowRead): number;
export function usCaNationalWith(raw: string, slow: SlowRead | null): number | typeof NEEDS_LIBPHONENUMBER;
export function usCaNationalWith(raw: string, slow: SlowRead | null): number | typeof NEEDS_LIBPHONENUMBER {
  normalizations++;
  if (typeof raw !== 'string' || raw.length > 256) return NOT_US_CA;
  const at = read(raw, slow);
  if (typeof at !== 'number') return at === NEEDS_LIBPHONENUMBER ? at : usCaNationalOf(at);
  return answerAt(scannedDigits, at).usCa ? nationalAt(at) : NOT_US_CA;
}

/** usCaNationalWith's answer for an input it gave NEEDS_LIBPHONENUMBER (not counted again). */
export function usCaNationalSlowly(raw: string, slow: SlowRead): number {
  return usCaNationalOf(slowly(raw, slow));
}

function usCaNationalOf(national: number | Analysis): number {
  if (typeof national === 'number') return answerFor(national).usCa ? national : NOT_US_CA;
  const a = national;
  if (!(a.valid && (a.region === 'US' || a.region === 'CA'))) return NOT_US_CA;
  const e164 = a.e164!;
  // '+1' and at most 15 digits (E.164's most), the first not 0: a number the digits give back exactly.
  if (!/^\+1[1-9]\d{0,14}$/.test(e164)) throw new Error(`libphonenumber-js wrote ${e164} for a US/CA number: not '+1' and digits`);
  return Number(e164.slice(2));
}

/** The E.164 of a national number usCaNationalWith answered. */
export function e164OfNational(national: number): string {
  return national >= 2_000_000_000 && national <= 9_999_999_999 ? e164Of(national) : `+1${national}`;
}

/** The answer for an input normalizeWith gave NEEDS_LIBPHONENUMBER (the same normalization: it is not counted again). */
export function normalizeSlowly(raw: string, slow: SlowRead): NormalizedNumber | null {
  return usCaOf(slowAnalysis(raw, slow));
}

// The digits of the last E.164 canonicalDigits read (see scannedDigits).
const canonical = new Uint8Array(10);

/**
 * Whether an E.164 string is as normalizeUsCa writes it ('+1', then 10 ASCII digits, the first 2-9),
 * its national digits then in `canonical`. scanNanp reads such a string to the same number (11
 * digits after '+', the first 1 and the second 2-9), so the table's answer for it is analyze's.
 */
function canonicalDigits(e164: string): boolean {
  if (e164.length !== 12 || e164.charCodeAt(0) !== 43 || e164.charCodeAt(1) !== 49) return false;
  for (let i = 2; i < 12; i++) {
    const d = e164.charCodeAt(i) - 48;
    if (d < 0 || d > 9 || (i === 2 && d < 2)) return false;
    canonical[i - 2] = d;
  }
  return true;
}

/** numberTypeOf (normalize.ts) with `slow` reading what the scan leaves of a number not in normalizeUsCa's E.164. */
export function numberTypeWith(e164: string, slow: SlowRead): string | undefined {
  if (canonicalDigits(e164)) {
    typeReads++;
    return answerAt(canonical, 0).usCa?.type;
  }
  const a = analyzeWith(e164, slow);
  return a.valid && (a.region === 'US' || a.region === 'CA') ? (a.type ?? 'UNKNOWN') : undefined;
}
