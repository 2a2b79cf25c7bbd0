import { Readable } from 'node:stream';
import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { csvLine } from '../uploads/csv';
import { MAX_NUMBERS } from '../uploads/plan';
import { MAX_CSV_BYTES } from '../uploads/request';
import { cellText } from './cell-text';
import { inflatesWithin, laidOutAsListed, startsLikeZip, zipDirectory } from './zip-directory';

// The console's XLSX import (docs/console.md): the first worksheet of an Excel workbook becomes the
// CSV the rest of the import reads (import-format.ts), cells as the text Excel shows. The workbook
// is streamed with exceljs's WorkbookReader, row by row, never loaded whole: reading stops at the
// first row past an upload's maximum, or when the CSV would exceed the largest file the API takes.

/** An Excel 97-2003 workbook (.xls, an OLE compound file): not read; the page says to save it as .xlsx. */
const startsLikeOle = (bytes: Buffer) => bytes.length >= 8 && bytes.readUInt32LE(0) === 0xe011cfd0 && bytes.readUInt32LE(4) === 0xe11ab1a1;

/**
 * The most the worksheets and their strings may declare once inflated. A sheet of the largest upload
 * (250,000 rows of a dozen columns) is about 150 MB of XML; more is a compressed bomb, refused before
 * exceljs inflates anything (it inflates a worksheet stored before its strings to a temporary file).
 */
export const XLSX_MAX_INFLATED_BYTES = 400 * 1024 * 1024;

/** Whether the bytes are a workbook to convert (a zip, or an old .xls to refuse) rather than text. */
export const isWorkbook = (bytes: Buffer): boolean => startsLikeZip(bytes) || startsLikeOle(bytes);

const TOO_LARGE = `The workbook is too large to read: its sheets hold more than ${XLSX_MAX_INFLATED_BYTES / 1024 / 1024} MB once unpacked, or more than it says. Save the sheet as CSV, or split it into smaller files.`;
const DAMAGED = 'The file could not be read as an Excel workbook (.xlsx): it is damaged or is not a workbook. Open it in Excel and save it again, or save it as CSV.';

export interface XlsxCsv {
  csv: Buffer;
  sheet: string;
  rows: number;
}

/** The workbook's first worksheet as the API's CSV (UTF-8, commas, CRLF); refusals in words. */
export async function xlsxToCsv(bytes: Buffer, limits = { rows: MAX_NUMBERS + 1, bytes: MAX_CSV_BYTES }): Promise<XlsxCsv> {
  if (startsLikeOle(bytes)) throw new InvalidInput('Excel 97-2003 workbooks (.xls) cannot be read; open the file in Excel and save it as .xlsx or CSV.');
  const directory = zipDirectory(bytes);
  // exceljs reads the local entries in order: they must be the directory's, laid out as listed.
  if (!directory || !laidOutAsListed(bytes, directory) || !directory.entries.some((e) => e.name === 'xl/workbook.xml')) throw new InvalidInput(DAMAGED);
  const parts = directory.entries.filter((e) => e.name.startsWith('xl/worksheets/') || e.name === 'xl/sharedStrings.xml');
  const inflated = parts.reduce((sum, e) => sum + e.uncompressedBytes, 0);
  if (inflated > XLSX_MAX_INFLATED_BYTES) throw new TooLarge(TOO_LARGE);
  // A directory may understate: each part is inflated once with nothing kept, stopped past its declared size.
  for (const part of parts) if (!(await inflatesWithin(bytes, part, part.uncompressedBytes))) throw new TooLarge(TOO_LARGE);

  // Loaded on the first workbook, not at a cold start: most uploads are text (docs/performance.md).
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from(bytes), {
    worksheets: 'emit',
    sharedStrings: 'cache',
    styles: 'cache', // dates: a number with a date format is read as a Date
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const lines: Buffer[] = [];
  let size = 0;
  let rows = 0;
  let sheet: string | null = null;
  let refusal: InvalidInput | TooLarge | null = null;
  try {
    // Every worksheet is read to its end, the first converted and the others skipped: exceljs copies
    // a worksheet stored before its strings (as Excel saves them) to a temporary file, and deletes
    // it only when asked for the next one. Past a limit nothing more is kept (memory stays bounded);
    // the rest is only read through (the directory check above bounds it), then refused.
    for await (const worksheet of reader) {
      if (sheet !== null) {
        for await (const _skipped of worksheet);
        continue;
      }
      sheet = (worksheet as unknown as { name: string }).name;
      for await (const row of worksheet) {
        if (refusal) continue;
        rows++;
        if (rows > limits.rows) {
          refusal = new InvalidInput(`The worksheet has more than ${(limits.rows - 1).toLocaleString('en-US')} rows of contacts; an upload holds at most ${MAX_NUMBERS.toLocaleString('en-US')}. Split it into smaller files.`);
          lines.length = 0;
          continue;
        }
        // row.values is 1-based and sparse: a cell left empty is a hole.
        const values = row.values as unknown[];
        const line = Buffer.from(csvLine(Array.from({ length: Math.max(0, values.length - 1) }, (_, i) => cellText(values[i + 1]))) + '\r\n', 'utf8');
        size += line.length;
        if (size > limits.bytes) {
          refusal = new TooLarge(`The worksheet is larger than ${limits.bytes / 1024 / 1024} MB as text; split it into smaller files`);
          lines.length = 0;
          continue;
        }
        lines.push(line);
      }
    }
  } catch {
    throw new InvalidInput(DAMAGED);
  }
  if (refusal) throw refusal;
  if (sheet === null) throw new InvalidInput('The workbook has no worksheet; it needs one with a header row and at least 100 phone numbers.');
  if (rows === 0) throw new InvalidInput(`The workbook's first worksheet ("${sheet}") is empty; it needs a header row and at least 100 phone numbers.`);
  return { csv: Buffer.concat(lines), sheet, rows };
}
