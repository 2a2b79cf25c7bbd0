// Which cells show a date (import-xlsx.ts): Excel stores a date as a number (days since 1900, or
// 1904) and tells it apart only by the cell's number format.

/** What a number format shows of a date serial: a day (with or without its time), a time of day, or a duration in hours. */
export type DateStyle = 'date' | 'time' | 'duration';

/** Built-in formats that show dates or times: Excel's own (14-22, 45-47) and those of its East Asian locales (27-36, 50-58). */
const BUILT_IN: Record<number, DateStyle> = {
  ...Object.fromEntries([14, 15, 16, 17, 22, 27, 28, 29, 30, 31, 34, 35, 36, 50, 51, 52, 53, 54, 57, 58].map((id) => [id, 'date'])),
  ...Object.fromEntries([18, 19, 20, 21, 32, 33, 45, 47, 55, 56].map((id) => [id, 'time'])),
  46: 'duration',
};

/**
 * What a format code shows: read from its y, m, d, h and s outside quoted text, escaped characters
 * (\m), bracketed parts ([Red], [$-409]) and the number part's exponent (0.00E+00); [h] (elapsed
 * hours) makes it a duration; h or s without a y or d, a time of day. Null: a number.
 */
export function dateStyleOfCode(code: string): DateStyle | null {
  const unquoted = code.replace(/"[^"]*"/g, '').replace(/\\./g, '').replace(/_.|\*./g, '');
  if (/\[h+\]/i.test(unquoted)) return 'duration';
  const bare = unquoted.replace(/\[[^\]]*\]/g, '').replace(/E[+-]/gi, '');
  if (!/[ymdhs]/i.test(bare)) return null;
  return /[yd]/i.test(bare) ? 'date' : /[hs]/i.test(bare) ? 'time' : 'date';
}

/** What a number format (a built-in id, or a code the workbook defines for it) shows of a date serial; null: a number. */
export function dateStyleOf(id: number, code: string | undefined): DateStyle | null {
  return code !== undefined ? dateStyleOfCode(code) : (BUILT_IN[id] ?? null);
}

const DAY_MS = 86_400_000;

/**
 * A date serial as the Date Excel shows for it, read as UTC: days since 1904-01-01 in the 1904
 * system; in the 1900 system days since 1899-12-30, except that Excel counts a 29 February 1900
 * that never was (serial 60), so serials before it are one day later than that count.
 */
export function serialToDate(serial: number, date1904: boolean): Date {
  if (date1904) return new Date(Date.UTC(1904, 0, 1) + Math.round(serial * DAY_MS));
  return new Date(Date.UTC(1899, 11, 30) + Math.round((serial < 61 ? serial + 1 : serial) * DAY_MS));
}
