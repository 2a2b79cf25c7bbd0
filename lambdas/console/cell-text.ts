// A spreadsheet cell as the text a CSV holds (the console's XLSX import, import-xlsx.ts): what
// Excel shows for it, never a formula, and numbers without an exponent or a trailing ".0".

/** A number as plain decimal text: integers exactly, fractions to Excel's 15 significant digits. */
export function plainNumber(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (n === 0) return '0';
  if (Number.isInteger(n)) return BigInt(n).toString();
  const s = String(Number(n.toPrecision(15)));
  const exponent = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(s);
  if (!exponent) return s;
  // Only fractions under 1e-6 reach here (larger values with an exponent are integers).
  const [, sign, first, rest = '', power] = exponent;
  return `${sign}0.${'0'.repeat(-Number(power) - 1)}${first}${rest}`;
}

/** A clock's or calendar's field as two digits (sheet-rows.ts writes times with it too). */
export const twoDigits = (n: number): string => String(n).padStart(2, '0');

/** A date cell (its serial read as UTC, number-format.ts): the day, and the time when it has one. */
export function plainDate(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const day = `${d.getUTCFullYear()}-${twoDigits(d.getUTCMonth() + 1)}-${twoDigits(d.getUTCDate())}`;
  const seconds = d.getUTCHours() * 3600 + d.getUTCMinutes() * 60 + d.getUTCSeconds();
  return seconds === 0 ? day : `${day} ${twoDigits(d.getUTCHours())}:${twoDigits(d.getUTCMinutes())}:${twoDigits(d.getUTCSeconds())}`;
}

/**
 * The text of a cell's value (sheet-rows.ts; a formula's cell holds its last computed result, never
 * the formula): text as is, numbers plain, dates as above, booleans TRUE/FALSE, errors as Excel
 * writes them (#N/A).
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return plainNumber(value);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return plainDate(value);
  if (typeof value === 'object') {
    const v = value as { error?: unknown };
    if ('error' in v) return typeof v.error === 'string' ? v.error : '';
  }
  return '';
}
