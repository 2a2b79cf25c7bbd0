import { posix } from 'node:path';
import { Readable } from 'node:stream';
import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { csvLine } from '../uploads/csv';
import { MAX_NUMBERS } from '../uploads/plan';
import { MAX_CSV_BYTES } from '../uploads/request';
import { cellText } from './cell-text';
import { sheetRows, type SheetContext } from './sheet-rows';
import { entryText, PastDeclaredSize, startsLikeZip, zipDirectory } from './zip-directory';

// The console's XLSX import (docs/console.md): the first worksheet of an Excel workbook becomes the
// CSV the rest of the import reads (import-format.ts), cells as the text Excel shows. The parts are
// read through the zip's directory and handed to exceljs's parsers (its WorkbookReader's own pass
// over the zip loses entries under load: exceljs-stream.d.ts); the worksheet is streamed row by row
// (sheet-rows.ts), never loaded whole: reading stops at the first row past an upload's maximum, or when
// the CSV would exceed the largest file the API takes.

/** An Excel 97-2003 workbook (.xls, an OLE compound file): not read; the page says to save it as .xlsx. */
const startsLikeOle = (bytes: Buffer) => bytes.length >= 8 && bytes.readUInt32LE(0) === 0xe011cfd0 && bytes.readUInt32LE(4) === 0xe11ab1a1;

/**
 * The most the parts read (the first worksheet, its strings and styles) may declare once inflated. A sheet of the largest upload
 * (250,000 rows of a dozen columns) is about 150 MB of XML; more, counted over the parts read, is a
 * compressed bomb, refused by what the zip's directory declares before that part is inflated.
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
  if (!directory) throw new InvalidInput(DAMAGED);
  const parts = new Map(directory.entries.map((e) => [e.name.toLowerCase(), e]));
  let declared = 0;
  /** A part as a stream of text, by its name in the zip; its declared size counted against the limit before anything is inflated. */
  const part = (name: string): Readable => {
    const entry = parts.get(name.toLowerCase());
    if (!entry) throw new InvalidInput(DAMAGED);
    declared += entry.uncompressedBytes;
    if (declared > XLSX_MAX_INFLATED_BYTES) throw new TooLarge(TOO_LARGE);
    return Readable.from(entryText(bytes, entry));
  };

  // Loaded on the first workbook, not at a cold start: most uploads are text (docs/performance.md).
  const [{ default: WorkbookReader }, { default: excel }] = await Promise.all([import('exceljs/lib/stream/xlsx/workbook-reader.js'), import('exceljs/lib/utils/utils.js')]);
  const book = new WorkbookReader(undefined, { worksheets: 'emit', sharedStrings: 'cache', styles: 'cache', hyperlinks: 'ignore', entries: 'ignore' });
  const lines: Buffer[] = [];
  let size = 0;
  let rows = 0;
  try {
    // The parts the first worksheet's cells depend on, each read once through the zip's directory,
    // before the sheet: where the workbook is, its sheets in tab order, its strings, its number
    // formats (a number with a date format is a date).
    await book._parseRels(part('xl/_rels/workbook.xml.rels'));
    await book._parseWorkbook(part('xl/workbook.xml'));
    const related = (type: string) => (book.workbookRels ?? []).filter((r) => r.Type.endsWith(`/${type}`) && r.TargetMode !== 'External');
    const [strings] = related('sharedStrings');
    if (strings) for await (const _ of book._parseSharedStrings(part(partName(strings.Target))));
    const [styles] = related('styles');
    if (styles) await book._parseStyles(part(partName(styles.Target)));
    const worksheets = new Map(related('worksheet').map((r) => [r.Id, r]));
    // The first tab that is a worksheet (a chart sheet holds no cells).
    const first = (book.model?.sheets ?? []).find((s) => worksheets.has(s.rId));
    if (!first) throw new InvalidInput('The workbook has no worksheet; it needs one with a header row and at least 100 phone numbers.');
    const shared = book.sharedStrings ?? [];
    const dateStyles = new Map<number, boolean>();
    const date1904 = book.properties?.model?.date1904 === true;
    const context: SheetContext = {
      sharedString: (index) => shared[index],
      isDate: (style) => {
        let date = dateStyles.get(style);
        if (date === undefined) dateStyles.set(style, (date = excel.isDateFmt(book.styles.getStyleModel(style)?.numFmt)));
        return date;
      },
      toDate: (serial) => excel.excelToDate(serial, date1904),
    };
    // Read row by row; past a limit the reading stops (the rest of the sheet is never inflated).
    for await (const values of sheetRows(part(partName(worksheets.get(first.rId)!.Target)), context)) {
      rows++;
      if (rows > limits.rows) throw new InvalidInput(`The worksheet has more than ${(limits.rows - 1).toLocaleString('en-US')} rows of contacts; an upload holds at most ${MAX_NUMBERS.toLocaleString('en-US')}. Split it into smaller files.`);
      // Sparse: a cell left empty is a hole.
      const line = Buffer.from(csvLine(Array.from({ length: values.length }, (_, i) => cellText(values[i]))) + '\r\n', 'utf8');
      size += line.length;
      if (size > limits.bytes) throw new TooLarge(`The worksheet is larger than ${limits.bytes / 1024 / 1024} MB as text; split it into smaller files`);
      lines.push(line);
    }
    if (rows === 0) throw new InvalidInput(`The workbook's first worksheet ("${first.name}") is empty; it needs a header row and at least 100 phone numbers.`);
    return { csv: Buffer.concat(lines), sheet: first.name, rows };
  } catch (error) {
    if (error instanceof InvalidInput || error instanceof TooLarge) throw error;
    if (error instanceof PastDeclaredSize) throw new TooLarge(TOO_LARGE);
    throw new InvalidInput(DAMAGED);
  }
}

/** A workbook relationship's target as a part name in the zip: relative to xl/, or absolute from the root. */
function partName(target: string): string {
  return target.startsWith('/') ? target.slice(1) : posix.normalize(posix.join('xl', target));
}
