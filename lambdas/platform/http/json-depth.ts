/**
 * How deeply objects and arrays may nest in a JSON request body. No field of the interface needs
 * more than a few levels; the bound keeps every recursive walk over a parsed body (serialization,
 * validation, DynamoDB marshalling) far from the stack limit.
 */
export const MAX_JSON_DEPTH = 64;

const OPEN_OBJECT = 0x7b; // {
const OPEN_ARRAY = 0x5b; // [
const CLOSE_OBJECT = 0x7d; // }
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * The deepest nesting of `{`/`[` in a JSON text, read from the bytes before parsing: one pass, no
 * recursion, no allocation. Brackets inside strings do not count. UTF-8 continuation bytes are
 * >= 0x80, so they never look like a bracket or a quote. Malformed text gives some number; the
 * parser rejects it afterwards.
 */
export function jsonNestingDepth(bytes: Uint8Array, stopAbove = Infinity): number {
  let depth = 0;
  let deepest = 0;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === QUOTE) i = stringEnd(bytes, i);
    else if (b === OPEN_OBJECT || b === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > stopAbove) return deepest;
      }
    } else if (b === CLOSE_OBJECT || b === CLOSE_ARRAY) depth--;
  }
  return deepest;
}

/**
 * Where the JSON string opened by the quote at `open` ends: the index of its closing quote (an
 * escaped quote does not close it), or the text's length when it never closes. UTF-8 continuation
 * bytes are >= 0x80, so they never look like a quote or a backslash.
 */
export function stringEnd(bytes: Uint8Array, open: number): number {
  for (let i = open + 1; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === BACKSLASH) i++;
    else if (b === QUOTE) return i;
  }
  return bytes.length;
}
