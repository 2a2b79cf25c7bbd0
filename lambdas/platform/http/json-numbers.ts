// A JSON number is parsed into a double: 12345678901234567890 becomes 12345678901234567000, 1e400
// Infinity (written back as null), 1.000000000000000000001 one. What the service keeps of a body
// (a contact's properties, a JSON upload's cells) must read back as sent, so a body holding a number
// a double cannot give back is refused, with the number named, rather than changed without a word.

import { stringEnd } from './json-depth';

const QUOTE = 0x22;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;

/** Digits, sign, point and exponent: what a JSON number token is made of. */
const inNumber = (b: number): boolean => (b >= ZERO && b <= NINE) || b === MINUS || b === 0x2b || b === 0x2e || b === 0x65 || b === 0x45;

/**
 * The first number token of a JSON text (outside strings) whose value a double does not give back
 * as the same decimal, or null when there is none. Read from the bytes, one pass; malformed text
 * gives some answer, and the parser refuses it anyway.
 */
export function firstInexactNumber(bytes: Uint8Array): string | null {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) {
      i = stringEnd(bytes, i);
      continue;
    }
    if (b !== MINUS && (b < ZERO || b > NINE)) continue;
    const start = i;
    let exponent = false;
    while (i < bytes.length && inNumber(bytes[i]!)) {
      if (bytes[i] === 0x65 || bytes[i] === 0x45) exponent = true;
      i++;
    }
    // Fifteen characters or fewer without an exponent: at most 15 significant digits, which a
    // double always gives back (it holds 15.95 decimal digits).
    if (i - start > 15 || exponent) {
      const token = Buffer.from(bytes.buffer, bytes.byteOffset + start, i - start).toString('latin1');
      if (!sameDecimal(token, String(Number(token)))) return token;
    }
    i--;
  }
  return null;
}

/** Whether two decimal numerals (JSON's grammar, or JavaScript's String(number)) denote the same value. */
export function sameDecimal(a: string, b: string): boolean {
  const x = decimalOf(a);
  const y = decimalOf(b);
  return x !== null && y !== null && x === y;
}

/** A numeral as `sign digits e exponent`, digits without leading or trailing zeros (value 0.digits × 10^exponent); '0' for zero. */
function decimalOf(numeral: string): string | null {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(numeral);
  if (!m) return null; // Infinity, NaN: no decimal gives them back
  const [, sign, whole, fraction = '', exp = '0'] = m;
  let digits = whole! + fraction;
  let exponent = whole!.length + Number(exp);
  let lead = 0;
  while (lead < digits.length && digits.charCodeAt(lead) === ZERO) lead++;
  digits = digits.slice(lead);
  exponent -= lead;
  let end = digits.length;
  while (end > 0 && digits.charCodeAt(end - 1) === ZERO) end--;
  digits = digits.slice(0, end);
  return digits ? `${sign}${digits}e${exponent}` : '0';
}
