import { InvalidInput } from '../platform/domain-errors';
import { normalizeUsCa } from '../classification';
import { csvLine } from '../uploads/csv';
import { MAX_NUMBERS, MIN_NUMBERS } from '../uploads/plan';

// The console's forgiving import (docs/console.md): a file as people save it (semicolons, tabs or
// pipes; UTF-16 or Windows-1252; no header row) is converted to the API's CSV (UTF-8, commas, a
// header row) before anything reads it. The API itself keeps the spec's CSV rules. Plain functions.

export const DELIMITERS = [',', ';', '\t', '|'] as const;
export type Delimiter = (typeof DELIMITERS)[number];
export const ENCODINGS = ['utf-8', 'utf-16le', 'utf-16be', 'windows-1252'] as const;
export type Encoding = (typeof ENCODINGS)[number];

export interface ImportChoice {
  delimiter?: Delimiter;
  encoding?: Encoding;
  header_row?: boolean;
}

export interface ImportFormat {
  delimiter: Delimiter;
  encoding: Encoding;
  /** Whether the file's first row is its header; when not, the columns are named column_1… */
  header_row: boolean;
  /** What was detected, whatever the person chose since. */
  detected: { delimiter: Delimiter; encoding: Encoding; header_row: boolean };
  /** The first row holds a valid phone number and no header-like word: the page asks. */
  first_row_looks_like_data: boolean;
  /** The stored file differs from the bytes sent (another delimiter or encoding, or a header added). */
  converted: boolean;
  /**
   * Set when the file was an Excel workbook: the worksheet read (its first visible), and how many
   * of its formula cells were saved without a result (read as empty). Delimiter and encoding are
   * then the converted CSV's.
   */
  workbook?: { sheet: string; formulas_without_result?: number };
  /** Rows counted right after reading: too few to hold an upload's minimum, or more than its maximum. */
  rows_problem: { kind: 'too_few' | 'too_many'; min: number; max: number; message: string } | null;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

const ENCODING_NAMES: Record<Encoding, string> = { 'utf-8': 'UTF-8', 'utf-16le': 'UTF-16 LE', 'utf-16be': 'UTF-16 BE', 'windows-1252': 'Windows-1252' };

export function detectEncoding(bytes: Buffer): Encoding {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  const utf16 = utf16WithoutBom(bytes);
  if (utf16) return utf16;
  try {
    utf8.decode(bytes);
    return 'utf-8';
  } catch {
    return 'windows-1252';
  }
}

/**
 * UTF-16 saved without a byte order mark, by its zero bytes: a CSV's text is nearly all ASCII,
 * whose every other byte is then zero (the high one: the second in LE, the first in BE), while a
 * text in an 8-bit encoding has none. Looked for in the first 4 KiB.
 */
function utf16WithoutBom(bytes: Buffer): Encoding | null {
  const n = Math.min(bytes.length, 4096) & ~1;
  if (n < 8) return null;
  let evenZeros = 0;
  let oddZeros = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenZeros++;
    if (bytes[i + 1] === 0) oddZeros++;
  }
  const pairs = n / 2;
  if (oddZeros >= pairs * 0.6 && evenZeros <= pairs * 0.05) return 'utf-16le';
  if (evenZeros >= pairs * 0.6 && oddZeros <= pairs * 0.05) return 'utf-16be';
  return null;
}

/**
 * What no text a person saves as CSV holds: a NUL character (an image, a zip, a PDF or a document
 * in another program's format); or, read in an encoding chosen over the detected one, a file of
 * some size without a single line break (the wrong encoding's characters, where a wrong guess
 * would otherwise surface as one enormous header row). Said in words before any reading goes on.
 */
function notTextProblem(text: string, encoding: Encoding, detected: Encoding, chosen: boolean): string | null {
  const nul = text.indexOf('\u0000');
  // A UTF-16 file read as an 8-bit encoding is NULs between its letters: the encoding is wrong, not the file.
  if (nul >= 0 && chosen && encoding !== detected && detected.startsWith('utf-16')) {
    return `Read as ${ENCODING_NAMES[encoding]} the file is NUL characters between its letters, so that is not its encoding; ${ENCODING_NAMES[detected]} (detected) reads it`;
  }
  if (nul >= 0) {
    const line = text.slice(0, nul).split(/\r\n|\r|\n/).length;
    return `The file holds binary data, not text (a NUL character on line ${line}${encoding === detected ? '' : ` read as ${ENCODING_NAMES[encoding]}`}): choose a CSV file or an Excel workbook (.xlsx)`;
  }
  if (chosen && encoding !== detected && text.length > 1000 && !/[\r\n]/.test(text)) {
    return `Read as ${ENCODING_NAMES[encoding]} the file has no line breaks, so that is not its encoding; ${ENCODING_NAMES[detected]} (detected) reads it`;
  }
  return null;
}

/** The text of the bytes in an encoding, without a byte order mark. */
export function decodeAs(bytes: Buffer, encoding: Encoding, detected?: Encoding): string {
  let text: string;
  try {
    text = new TextDecoder(encoding, { fatal: encoding === 'utf-8' }).decode(bytes);
  } catch {
    if (detected && detected !== 'utf-8') throw new InvalidInput(`The file is not UTF-8 text; ${ENCODING_NAMES[detected]} (detected) reads it`);
    throw new InvalidInput('The file is not UTF-8 text; choose another encoding (Windows-1252 is the usual one for files saved by Excel on Windows)');
  }
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Reads delimited text: fields quoted with " (doubled inside), CRLF/LF/CR line ends, blank lines
 * skipped. Stops after `limit` records (for sampling).
 */
export function parseDelimited(text: string, delimiter: Delimiter, limit = Infinity): string[][] {
  const rows: string[][] = [];
  const d = delimiter.charCodeAt(0);
  const n = text.length;
  let i = 0;
  while (i < n && rows.length < limit) {
    const fields: string[] = [];
    const start = i;
    for (;;) {
      let value = '';
      if (text.charCodeAt(i) === 34) {
        let j = i + 1;
        for (;;) {
          const q = text.indexOf('"', j);
          if (q === -1) {
            // A sample cut inside a quoted field ends there; a whole file that does is not CSV.
            if (limit !== Infinity) return rows;
            throw new InvalidInput(`The file is not valid CSV: a quoted cell that starts on line ${rows.length + 1} never ends`);
          }
          value += text.slice(j, q);
          if (text.charCodeAt(q + 1) === 34) {
            value += '"';
            j = q + 2;
            continue;
          }
          i = q + 1;
          break;
        }
        while (i < n && text.charCodeAt(i) !== d && text[i] !== '\n' && text[i] !== '\r') value += text[i++];
      } else {
        let j = i;
        while (j < n) {
          const c = text.charCodeAt(j);
          if (c === d || c === 10 || c === 13) break;
          j++;
        }
        value = text.slice(i, j);
        i = j;
      }
      fields.push(value);
      if (i >= n) break;
      const c = text.charCodeAt(i);
      if (c === d) {
        i++;
        if (i >= n) {
          fields.push('');
          break;
        }
        continue;
      }
      i += c === 13 && text.charCodeAt(i + 1) === 10 ? 2 : 1;
      break;
    }
    const blank = fields.length === 1 && fields[0] === '' && text.charCodeAt(start) !== 34;
    if (!blank) rows.push(fields);
  }
  return rows;
}

const SAMPLE_CHARS = 64 * 1024;
const SAMPLE_ROWS = 50;

/**
 * The delimiter whose first rows split most consistently into more than one field: for each, the
 * share of sampled rows with the most common field count; ties go to more fields, then to the
 * comma. A one-column file is read with commas.
 */
export function detectDelimiter(text: string): Delimiter {
  const sample = text.slice(0, SAMPLE_CHARS);
  let best: { d: Delimiter; share: number; fields: number } = { d: ',', share: 0, fields: 1 };
  for (const d of DELIMITERS) {
    const rows = parseDelimited(sample, d, SAMPLE_ROWS);
    if (rows.length === 0) continue;
    const counts = new Map<number, number>();
    for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
    const [fields, times] = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]!;
    if (fields < 2) continue;
    const share = times / rows.length;
    if (share > best.share || (share === best.share && fields > best.fields)) best = { d, share, fields };
  }
  return best.d;
}

const HEADER_WORDS = /(?<![a-z])(?:phone|mobile|cell|tel|telephone|number|no|name|first|last|full|e-?mail|city|state|zip|postal|code|address|street|country|company|note|notes|contact|id|home|work|office|primary|given|family|surname|fax)(?![a-z])/gi;

/**
 * A column name like the ones contact lists use: header words only ("Phone", "First name",
 * "Mobile #", "phone_2"), not a value that holds one ("Acme Phone Services" is a company).
 */
function isHeaderCell(cell: string): boolean {
  const text = cell.trim();
  if (!text || !/[a-z]/i.test(text)) return false;
  return text.replace(HEADER_WORDS, '').replace(/[\s_.#\-/()0-9]+/g, '') === '';
}

/** A first row that holds a valid US/CA number and no cell that reads as a column name is probably a contact. */
export function looksLikeData(firstRow: string[]): boolean {
  return firstRow.some((c) => normalizeUsCa(c.trim()) !== null) && !firstRow.some(isHeaderCell);
}

export function rowsProblem(rows: number): ImportFormat['rows_problem'] {
  if (rows < MIN_NUMBERS) return { kind: 'too_few', min: MIN_NUMBERS, max: MAX_NUMBERS, message: `The file has ${rows} ${rows === 1 ? 'row' : 'rows'} of contacts; an upload needs at least ${MIN_NUMBERS} valid phone numbers, so it cannot go through as it is.` };
  if (rows > MAX_NUMBERS) return { kind: 'too_many', min: MIN_NUMBERS, max: MAX_NUMBERS, message: `The file has ${rows.toLocaleString('en-US')} rows of contacts; an upload holds at most ${MAX_NUMBERS.toLocaleString('en-US')}. Split it into smaller files.` };
  return null;
}

/**
 * The bytes as the API's CSV, with what was detected and chosen. A UTF-8 comma file with a header
 * is kept byte for byte (the processed file keeps its cells exactly); anything else is rewritten:
 * UTF-8 without a byte order mark, commas, cells quoted only where CSV needs it, CRLF line ends.
 */
export function toApiCsv(bytes: Buffer, choice: ImportChoice = {}): { csv: Buffer; format: ImportFormat } {
  const detectedEncoding = detectEncoding(bytes);
  const encoding = choice.encoding ?? detectedEncoding;
  const text = decodeAs(bytes, encoding, detectedEncoding);
  const problem = notTextProblem(text, encoding, detectedEncoding, choice.encoding !== undefined);
  if (problem) throw new InvalidInput(problem);
  const detectedDelimiter = detectDelimiter(text);
  const delimiter = choice.delimiter ?? detectedDelimiter;
  const rows = parseDelimited(text, delimiter);
  const first = rows[0] ?? [];
  const firstLooksLikeData = looksLikeData(first);
  const headerRow = choice.header_row ?? !firstLooksLikeData;
  // A loop, not Math.max(...rows): a spread of 130,000 rows' arguments overflowed the stack (a 500 for a large file).
  let width = 0;
  for (const row of rows) if (row.length > width) width = row.length;
  const header = headerRow ? null : Array.from({ length: width }, (_, i) => `column_${i + 1}`);
  const untouched = encoding === 'utf-8' && delimiter === ',' && headerRow && detectedEncoding === 'utf-8';
  let csv: Buffer;
  if (untouched) csv = bytes;
  else if (encoding !== 'utf-8' || delimiter !== ',') csv = Buffer.from([...(header ? [header] : []), ...rows].map(csvLine).join('\r\n') + '\r\n', 'utf8');
  // Only a header added to a UTF-8 comma file: the rows stay byte for byte.
  else csv = Buffer.concat([Buffer.from(csvLine(header!) + '\r\n', 'utf8'), bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes]);
  return {
    csv,
    format: {
      delimiter,
      encoding,
      header_row: headerRow,
      detected: { delimiter: detectedDelimiter, encoding: detectedEncoding, header_row: !firstLooksLikeData },
      first_row_looks_like_data: firstLooksLikeData,
      converted: !untouched,
      rows_problem: rowsProblem(rows.length - (headerRow ? 1 : 0)),
    },
  };
}
