import { parsePhoneNumberFromString } from 'libphonenumber-js/max';

export interface NormalizedNumber {
  e164: string;
  region: 'US' | 'CA';
  /** libphonenumber's getType(), or 'UNKNOWN'. */
  type: string;
}

const memo = new Map<string, NormalizedNumber | null>();
const MEMO_LIMIT = 500_000;

/**
 * Any common US/CA format → E.164 with region and type, exactly as libphonenumber-js (max
 * metadata) answers. Other NANP territories are refused: the service covers US and Canada only.
 */
export function normalizeUsCa(raw: string): NormalizedNumber | null {
  const cached = memo.get(raw);
  if (cached !== undefined) return cached;
  const result = parse(raw);
  if (memo.size >= MEMO_LIMIT) memo.clear();
  memo.set(raw, result);
  return result;
}

function parse(raw: string): NormalizedNumber | null {
  if (typeof raw !== 'string' || raw.length > 64) return null;
  const parsed = parsePhoneNumberFromString(raw, 'US');
  if (!parsed || !parsed.isValid()) return null;
  const region = parsed.country;
  if (region !== 'US' && region !== 'CA') return null;
  return { e164: parsed.number, region, type: parsed.getType() ?? 'UNKNOWN' };
}
