// A one-pass reader of the shapes customer lists hold, over char codes, without intermediate
// strings. It answers only where it can show that libphonenumber-js (parse.js, 1.x) reads the input
// as a 10-digit national number whose area code starts with 2-9 (rules 1-5), or a 7-digit one (rule
// 7), or finds no valid number in it (rule 6); everything else is left to libphonenumber-js
// (NOT_READ). What libphonenumber-js does with an input, and why each rule below
// gives the same digits:
//
// 1. No ';' anywhere: no ";phone-context=", ";isub=", ";ext=" or ";" auto-dialling extension.
//    Only ASCII: no full-width or Arabic-Indic digits, no full-width plus, no non-ASCII space or
//    punctuation, no combining accent in "extensión". Over 250 characters it refuses the input.
// 2. It keeps the text from the first '+' or digit to the last digit or '#' (anything around it,
//    "tel:", "call", "(mobile)", is dropped). A trailing '#' is left to it (extension suffixes).
// 3. The kept text must be viable: an optional '+', then digits and punctuation (ASCII: space
//    - . / ( ) [ ] ~), then an optional extension. '~' is also an extension label, so it is left
//    to libphonenumber-js; so are ',' (extension separators) and tabs.
// 4. An extension is the leftmost match, anchored at the end, of its extension pattern. Read here:
//    spaces, a label — "ext", "extn", "extension" (e?xt(?:ensio)?n?, any case) or 'x' or '#' — an
//    optional ':' or '.', spaces or '-', then 1 to 9 digits ending the text. No match can start
//    earlier: every alternative starts with a separator run and a label, or (American style)
//    ends in '#', and the body before holds neither labels nor '#'. Its digits are not the number's.
// 5. The number's digits are then every digit before the extension, a leading '+' kept. With '+',
//    the calling code 1 and 10 digits; without, 10 digits, or the national prefix 1 and 10 digits
//    (which it strips whatever the rest is, as the area code starts with 2-9: see normalize.ts), or
//    the US's IDD 011, the calling code 1 and 10 digits (it strips the IDD, as a digit other than
//    0 follows, and reads the rest as after a '+'). Also the calling code 1, the national prefix 1
//    and 10 digits: after '+' or the IDD, the calling code is taken and the national prefix
//    stripped as above; without either, it takes the leading 1 for the calling code (in
//    extractCountryCallingCodeFromInternationalNumberWithoutPlusSign) because the national number
//    it would read otherwise, 11 or 12 digits, is TOO_LONG for every +1 region, then strips the
//    national prefix from the rest as after '+1'.
// 6. Invalid inputs are answered too, where no national number libphonenumber-js can make of the
//    digits is valid. It refuses an input over 250 characters, and one without a '+' or digit
//    (rule 2 then keeps nothing). Otherwise (rules 1-4 holding) the national numbers it can make of
//    the digits s are: with '+', s[1..] when s[0] is '1' (its metadata here holds the calling code
//    1 alone), and s[2..] when s[1] is '1' too (the national prefix 1, stripped at most once);
//    without, s, s[1..] when s[0] is '1' (calling code without '+', or the national prefix) and
//    s[2..] when s[1] is '1' too (both); and when s starts with the IDD 011 followed by a digit
//    other than 0, what '+' and s[3..] gives. A number is valid only if the general pattern of a
//    NANP region matches it: nationalMayBeValid (nanp-shapes.ts, from nanp-pattern-shapes.ts's reading of
//    those patterns) says which lengths and first three digits can, as some region's general
//    pattern and one of its type patterns both must (10 digits of the area codes in use, or 7
//    starting 310, with today's metadata).
// 7. A national number of 7 digits is read too: without '+', 7 digits, the first 2-9 (nothing for
//    libphonenumber-js to strip: no IDD, no calling code, no national prefix 1, and the US, whose
//    plan it parses such an input with, has no other rule for parsing it), or with '+', the
//    calling code 1 and 7 digits, the first 2-9 (the same national number after the calling code).
//    Where rule 6 finds it can be valid (7 digits starting 310, Canada's UAN, with today's
//    metadata), the answer is the prefix table's for 7-digit numbers (nanp-prefix-table.ts), asked
//    of libphonenumber-js for all 10,000 numbers of each such start in both forms when the metadata
//    is written; a start whose answers differ is left to libphonenumber-js.
//    test/unit/classification/normalize.test.ts checks the metadata facts this rests on.

/** Returned when the input is not of a shape read here. */
export const NOT_READ = -1;
/** Returned when libphonenumber-js finds no valid number in the input (rule 6). */
export const NO_NUMBER = -2;
/** Added to where a 7-digit national number starts in scannedDigits: scanNanpAt's answer for one (rule 7). */
export const SEVEN_DIGITS = 16;

import { nationalMayBeValid } from './nanp-shapes';

const lower = (c: number): number => c | 0x20;

/** Whether raw holds `w` (lower case) at `i`, in any case. */
function word(raw: string, i: number, w: string): boolean {
  if (i + w.length > raw.length) return false;
  for (let k = 0; k < w.length; k++) if (lower(raw.charCodeAt(i + k)) !== w.charCodeAt(k)) return false;
  return true;
}

// The first 16 digits of the input scanNanpAt read last, as values 0-9. Kept in one array, written
// over by each scan, rather than summed into a number: a 10-digit number exceeds a small integer, and
// until the JIT has optimized this code (the first thousands of inputs a process reads) every step of
// such a sum allocated a heap number. Read at once by the caller (normalize-core.ts), before any
// other scan.
export const scannedDigits = new Uint8Array(16);

/**
 * Where the 10-digit national number libphonenumber-js reads from `raw` starts in scannedDigits,
 * when its area code starts with 2-9 and the shape is one read here; SEVEN_DIGITS and where it
 * starts for a 7-digit national number that can be valid (rule 7); NO_NUMBER when it finds no
 * valid number in it (rule 6); NOT_READ otherwise.
 */
export function scanNanpAt(raw: string): number {
  const len = raw.length;
  if (len > 250) return NO_NUMBER;
  const d = scannedDigits;
  let start = -1; // the first '+' or digit (rule 2)
  let end = -1; // the last digit or '#' (rule 2)
  let stop = len; // the first character after start that is neither a digit nor punctuation (rule 3)
  let plus = false;
  let digits = 0; // the digits from start to stop
  // One pass, the character tests written out rather than called: until the JIT has optimized this
  // function (the first thousands of inputs a process reads), each call and each read of a
  // character cost more than the test itself.
  for (let i = 0; i < len; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      end = i;
      if (start < 0) start = i;
      if (i < stop) {
        if (digits < 16) d[digits] = c - 48;
        digits++;
      }
    } else if (c >= 128 || c === 59) return NOT_READ;
    else if (c === 35) {
      // '#'
      end = i;
      if (start >= 0 && stop === len) stop = i;
    } else if (start < 0) {
      if (c === 43) {
        start = i;
        plus = true;
      }
    } else if (stop === len && !(c === 32 || c === 45 || c === 46 || c === 47 || c === 40 || c === 41 || c === 91 || c === 93)) stop = i; // space - . / ( ) [ ]
  }
  if (start < 0 || end < start) return NO_NUMBER;
  if (raw.charCodeAt(end) === 35) return NOT_READ;
  if (stop <= end && !isExtension(raw, stop, end)) return NOT_READ;

  if (digits === 10) {
    if (!plus && d[0]! >= 2) return 0;
  } else if (digits === 11) {
    // '1' and a national number 2-9…, with '+' or without.
    if (d[0] === 1 && d[1]! >= 2) return 1;
  } else if (digits === 14 && !plus) {
    // The IDD 011, the calling code 1, a national number 2-9….
    if (d[0] === 0 && d[1] === 1 && d[2] === 1 && d[3] === 1 && d[4]! >= 2) return 4;
  } else if (digits === 12) {
    // The calling code 1, the national prefix 1, a national number 2-9…, with '+' or without.
    if (d[0] === 1 && d[1] === 1 && d[2]! >= 2) return 2;
  } else if (digits === 15 && !plus) {
    // The IDD 011, then the same.
    if (d[0] === 0 && d[1] === 1 && d[2] === 1 && d[3] === 1 && d[4] === 1 && d[5]! >= 2) return 5;
  } else if (digits === 7) {
    if (!plus && d[0]! >= 2) return nationalMayBeValid(7, threeAt(0, 7)) ? SEVEN_DIGITS : NO_NUMBER;
  } else if (digits === 8) {
    // The calling code 1 and a national number 2-9….
    if (plus && d[0] === 1 && d[1]! >= 2) return nationalMayBeValid(7, threeAt(1, 8)) ? SEVEN_DIGITS + 1 : NO_NUMBER;
  }
  return mayBeValid(plus, digits) ? NOT_READ : NO_NUMBER;
}

/** The 10 digits at `at` of scannedDigits as one number. */
export function nationalAt(at: number): number {
  const d = scannedDigits;
  const hi = d[at]! * 10000 + d[at + 1]! * 1000 + d[at + 2]! * 100 + d[at + 3]! * 10 + d[at + 4]!;
  return hi * 100000 + d[at + 5]! * 10000 + d[at + 6]! * 1000 + d[at + 7]! * 100 + d[at + 8]! * 10 + d[at + 9]!;
}

/**
 * The national number libphonenumber-js reads from `raw`, as an integer, when it has 10 digits and
 * its area code starts with 2-9, or 7 digits that can be valid (rule 7), and the shape is one read
 * here; NO_NUMBER when it finds no valid number in it (rule 6); NOT_READ otherwise.
 */
export function scanNanp(raw: string): number {
  const at = scanNanpAt(raw);
  if (at < SEVEN_DIGITS) return at < 0 ? at : nationalAt(at);
  let national = 0;
  for (let i = at - SEVEN_DIGITS; i < at - SEVEN_DIGITS + 7; i++) national = national * 10 + scannedDigits[i]!;
  return national;
}

/** The scanned digit at p, 0 past the count. */
const digitAt = (p: number, count: number): number => (p < count ? scannedDigits[p]! : 0);
/** The three scanned digits from p as one number. */
const threeAt = (p: number, count: number): number => digitAt(p, count) * 100 + digitAt(p + 1, count) * 10 + digitAt(p + 2, count);
/** After the calling code 1 at p - 1: whether the rest, or the rest without the national prefix 1, can be valid. */
const afterCallingCode = (p: number, count: number): boolean =>
  nationalMayBeValid(count - p, threeAt(p, count)) || (digitAt(p, count) === 1 && nationalMayBeValid(count - p - 1, threeAt(p + 1, count)));

/**
 * Whether a national number libphonenumber-js can make of the `count` digits in scannedDigits can
 * be valid (rule 6). It reads no further than the eighth digit; a digit past the count reads 0, and
 * nationalMayBeValid(n, …) is false for n ≤ 0, so such a digit never makes an answer.
 */
function mayBeValid(plus: boolean, count: number): boolean {
  if (plus) return digitAt(0, count) === 1 && afterCallingCode(1, count);
  // The IDD 011 and a digit other than 0 (with nothing after it, the digit reads 0: the national
  // path, as libphonenumber-js takes it when nothing follows the IDD).
  if (digitAt(0, count) === 0 && digitAt(1, count) === 1 && digitAt(2, count) === 1 && digitAt(3, count) !== 0) return digitAt(3, count) === 1 && afterCallingCode(4, count);
  return nationalMayBeValid(count, threeAt(0, count)) || (digitAt(0, count) === 1 && afterCallingCode(1, count));
}

/** Whether raw[i..end] (end a digit) is an extension as rule 4 reads it. */
function isExtension(raw: string, i: number, end: number): boolean {
  const c = lower(raw.charCodeAt(i));
  if (raw.charCodeAt(i) === 35) i++; // '#'
  else if (c === 101 || c === 120) {
    // e?xt(?:ensio)?n?, or a lone 'x'
    if (c === 101 ? word(raw, i, 'ext') : word(raw, i, 'xt')) {
      i += c === 101 ? 3 : 2;
      if (word(raw, i, 'ensio')) i += 5;
      if (lower(raw.charCodeAt(i)) === 110) i++;
    } else if (c === 120) i++;
    else return false;
  } else return false;
  const after = raw.charCodeAt(i);
  if (after === 58 || after === 46) i++; // ':' '.'
  while (i <= end && (raw.charCodeAt(i) === 32 || raw.charCodeAt(i) === 45)) i++;
  const digits = end - i + 1;
  if (digits < 1 || digits > 9) return false;
  for (; i <= end; i++) {
    const digit = raw.charCodeAt(i);
    if (digit < 48 || digit > 57) return false;
  }
  return true;
}
