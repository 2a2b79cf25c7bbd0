// Reading a large JSON text in place, as UTF-8 bytes: where each member of an object starts and
// ends, without building its value. What finalize reads of the stored layout (layout-index.ts) is
// a few small members, two arrays of integers and the names of the formula rows; the rest (the
// formula rows' fields, in layouts stored before 2026-11-26: at 100 MB about 23 of their 28 MB) is
// stepped over, never decoded.

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class JsonInPlaceError extends Error {
  override name = 'JsonInPlaceError';
}

const fail = (what: string, at: number): never => {
  throw new JsonInPlaceError(`${what} at byte ${at}`);
};

const isSpace = (b: number | undefined): boolean => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;

export function skipSpace(bytes: Uint8Array, at: number): number {
  while (isSpace(bytes[at])) at++;
  return at;
}

/** The end (past its closing quote) of the string starting at `at`. */
export function skipString(bytes: Buffer, at: number): number {
  if (bytes[at] !== QUOTE) fail('a string was expected', at);
  let from = at + 1;
  for (;;) {
    const q = bytes.indexOf(QUOTE, from);
    if (q === -1) return fail('unterminated string', at);
    let slashes = 0;
    while (bytes[q - 1 - slashes] === BACKSLASH) slashes++;
    if (slashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** The end of the JSON value starting at `at` (spaces before it skipped). */
export function skipValue(bytes: Buffer, at: number): number {
  at = skipSpace(bytes, at);
  const first = bytes[at];
  if (first === QUOTE) return skipString(bytes, at);
  if (first !== 0x5b && first !== 0x7b) {
    // A number, true, false or null: up to the next delimiter.
    const from = at;
    while (at < bytes.length && !isSpace(bytes[at]) && bytes[at] !== 0x2c && bytes[at] !== 0x5d && bytes[at] !== 0x7d) at++;
    return at > from ? at : fail('a value was expected', from);
  }
  // An array or object: brackets counted outside strings.
  let depth = 0;
  for (;;) {
    const b = bytes[at];
    if (b === undefined) return fail('unterminated array or object', at);
    if (b === QUOTE) {
      at = skipString(bytes, at);
      continue;
    }
    if (b === 0x5b || b === 0x7b) depth++;
    else if (b === 0x5d || b === 0x7d) depth--;
    at++;
    if (depth === 0) return at;
  }
}

/**
 * Each member of the object starting at `at`, in order: its name and where its value lies
 * ([from, to) in `bytes`, spaces excluded). Returns the end of the object.
 */
export function eachMember(bytes: Buffer, at: number, visit: (name: string, from: number, to: number) => void): number {
  at = skipSpace(bytes, at);
  if (bytes[at] !== 0x7b) fail('an object was expected', at);
  at = skipSpace(bytes, at + 1);
  if (bytes[at] === 0x7d) return at + 1;
  for (;;) {
    const nameEnd = skipString(bytes, at);
    const name = JSON.parse(bytes.toString('utf8', at, nameEnd)) as string;
    at = skipSpace(bytes, nameEnd);
    if (bytes[at] !== 0x3a) fail('a colon was expected', at);
    const from = skipSpace(bytes, at + 1);
    const to = skipValue(bytes, from);
    visit(name, from, to);
    at = skipSpace(bytes, to);
    if (bytes[at] === 0x7d) return at + 1;
    if (bytes[at] !== 0x2c) fail('a comma or a closing brace was expected', at);
    at = skipSpace(bytes, at + 1);
  }
}

/** The value in [from, to), parsed (a small member). */
export const parseValue = (bytes: Buffer, from: number, to: number): unknown => JSON.parse(bytes.toString('utf8', from, to));

/**
 * The array of non-negative integers in [from, to) (each below 2^32), as a typed array: counted
 * first, then read digit by digit, so no array of numbers is built.
 */
export function readUint32s(bytes: Buffer, from: number, to: number): Uint32Array {
  if (bytes[from] !== 0x5b || bytes[to - 1] !== 0x5d) fail('an array was expected', from);
  let count = 0;
  let any = false;
  for (let i = from + 1; i < to - 1; i++) {
    const b = bytes[i]!;
    if (b === 0x2c) count++;
    else if (!isSpace(b)) any = true;
  }
  const out = new Uint32Array(any ? count + 1 : 0);
  let k = 0;
  let at = skipSpace(bytes, from + 1);
  while (any) {
    let value = 0;
    const start = at;
    for (let b = bytes[at]!; b >= 0x30 && b <= 0x39; b = bytes[++at]!) value = value * 10 + (b - 0x30);
    if (at === start || at - start > 10 || value > 0xffffffff) fail('a non-negative integer below 2^32 was expected', start);
    out[k++] = value;
    at = skipSpace(bytes, at);
    if (bytes[at] === 0x5d) break;
    if (bytes[at] !== 0x2c) fail('a comma or a closing bracket was expected', at);
    at = skipSpace(bytes, at + 1);
  }
  if (k !== out.length) fail('an array was not read whole', from);
  return out;
}
