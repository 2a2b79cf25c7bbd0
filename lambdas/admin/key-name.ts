import { InvalidInput } from '../platform/domain-errors';

/** The longest key name, in characters (code points) after trimming. */
export const KEY_NAME_MAX = 80;

// Control characters (tabs and line breaks included: a name is one line), and the bidirectional
// overrides and isolates that make a name read differently from what it holds.
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/u;

/**
 * An API key's optional name ("CRM sync", "staging"): what a person reads in the key list to tell
 * keys apart. Trimmed and NFC-normalized; empty or absent is no name (null). Longer than
 * KEY_NAME_MAX, or holding a control or bidi-override character, is refused.
 */
export function normalizeKeyName(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const name = raw.normalize('NFC').trim();
  if (name === '') return null;
  if (FORBIDDEN.test(name)) throw new InvalidInput('A key name is one line of text, without control characters');
  if ([...name].length > KEY_NAME_MAX) throw new InvalidInput(`A key name has at most ${KEY_NAME_MAX} characters`);
  return name;
}
