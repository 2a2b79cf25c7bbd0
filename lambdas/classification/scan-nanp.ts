// A one-pass reader of the shapes customer lists hold, over char codes, without intermediate
// strings. It answers only where it can show that libphonenumber-js (parse.js, 1.x) reads the input
// as a 10-digit national number whose area code starts with 2-9; everything else is left to
// libphonenumber-js (NOT_READ). What libphonenumber-js does with an input, and why each rule below
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
//    (which it strips whatever the rest is, as the area code starts with 2-9: see normalize.ts).

/** Returned when the input is not of a shape read here. */
export const NOT_READ = -1;

const isDigit = (c: number): boolean => c >= 48 && c <= 57;
// space - . / ( ) [ ]
const isPunctuation = (c: number): boolean => c === 32 || c === 45 || c === 46 || c === 47 || c === 40 || c === 41 || c === 91 || c === 93;
const lower = (c: number): number => c | 0x20;

/** Whether raw holds `w` (lower case) at `i`, in any case. */
function word(raw: string, i: number, w: string): boolean {
  if (i + w.length > raw.length) return false;
  for (let k = 0; k < w.length; k++) if (lower(raw.charCodeAt(i + k)) !== w.charCodeAt(k)) return false;
  return true;
}

/**
 * The 10-digit national number libphonenumber-js reads from `raw`, as an integer, when its area
 * code starts with 2-9 and the shape is one read here; NOT_READ otherwise.
 */
export function scanNanp(raw: string): number {
  const len = raw.length;
  if (len > 250) return NOT_READ;
  let start = -1;
  let end = -1;
  for (let i = 0; i < len; i++) {
    const c = raw.charCodeAt(i);
    if (c >= 128 || c === 59) return NOT_READ;
    if (isDigit(c) || c === 35) end = i;
    else if (c === 43 && start < 0) start = i;
    if (start < 0 && isDigit(c)) start = i;
  }
  if (start < 0 || end < start || raw.charCodeAt(end) === 35) return NOT_READ;

  let i = start;
  const plus = raw.charCodeAt(i) === 43;
  if (plus) i++;
  let digits = 0;
  let first = 0;
  let second = 0;
  let value = 0;
  for (; i <= end; i++) {
    const c = raw.charCodeAt(i);
    if (isDigit(c)) {
      if (++digits > 11) return NOT_READ;
      const d = c - 48;
      if (digits === 1) first = d;
      else if (digits === 2) second = d;
      value = value * 10 + d;
    } else if (!isPunctuation(c)) break;
  }
  if (i <= end && !isExtension(raw, i, end)) return NOT_READ;

  if (digits === 11) return first === 1 && second >= 2 ? value - 1e10 : NOT_READ;
  if (digits === 10 && !plus) return first >= 2 ? value : NOT_READ;
  return NOT_READ;
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
  for (; i <= end; i++) if (!isDigit(raw.charCodeAt(i))) return false;
  return true;
}
