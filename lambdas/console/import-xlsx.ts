import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { csvLine } from '../uploads/csv';
import { MAX_NUMBERS } from '../uploads/plan';
import { MAX_CSV_BYTES } from '../uploads/request';
import { cellText } from './cell-text';
import { serialToDate } from './number-format';
import { sheetRows, type SheetContext } from './sheet-rows';
import { readDateStyles, readRelationships, readSharedStrings, readWorkbook, relationshipsOf } from './xlsx-parts';
import { DAMAGED } from './xlsx-xml';
import { startsLikeOle } from './workbook-bytes';
import { entryText, PastDeclaredSize, zipDirectory } from './zip-directory';

// The console's XLSX import (docs/console.md): the first worksheet of an Excel workbook becomes the
// CSV the rest of the import reads (import-format.ts), cells as the text Excel shows. Each part is
// read through the zip's directory (zip-directory.ts), never by walking the local entries as they
// are stored (exceljs's streaming reader did, and lost entries under load, exceljs/exceljs#3064),
// and parsed keeping only what the import needs, within bounds (xlsx-parts.ts, xlsx-xml.ts); the
// worksheet is streamed row by row (sheet-rows.ts), never loaded whole: reading stops at the first
// row past an upload's maximum, or when the CSV would exceed the largest file the API takes.

/**
 * The most the parts read (the workbook, its relationships, shared strings and styles, and the
 * first worksheet) may declare once inflated. A sheet of the largest upload (250,000 rows of a
 * dozen columns) is about 150 MB of XML; more, counted over the parts read, is a compressed bomb,
 * refused by what the zip's directory declares before that part is inflated.
 */
export const XLSX_MAX_INFLATED_BYTES = 400 * 1024 * 1024;

const TOO_LARGE = `The workbook is too large to read: its sheets hold more than ${XLSX_MAX_INFLATED_BYTES / 1024 / 1024} MB once unpacked, or more than it says. Save the sheet as CSV, or split it into smaller files.`;

export interface XlsxCsv {
  csv: Buffer;
  sheet: string;
  rows: number;
  /** Formula cells saved without their result (read as empty): the page says to save the file in a spreadsheet first. */
  formulasWithoutResult: number;
}

/** The workbook's first visible worksheet as the API's CSV (UTF-8, commas, CRLF); refusals in words. */
export async function xlsxToCsv(bytes: Buffer, limits = { rows: MAX_NUMBERS + 1, bytes: MAX_CSV_BYTES }): Promise<XlsxCsv> {
  if (startsLikeOle(bytes)) {
    throw new InvalidInput('The file is an Excel 97-2003 workbook (.xls), or an Excel workbook saved with a password; neither can be read. Open it in Excel and save it as .xlsx without a password, or as CSV.');
  }
  const directory = zipDirectory(bytes);
  if (!directory) throw new InvalidInput(DAMAGED);
  const entries = new Map(directory.entries.map((e) => [e.name.toLowerCase(), e]));
  let declared = 0;
  /** A part as a stream of text, by its name in the zip; its declared size counted against the limit before anything is inflated. */
  const part = (name: string): AsyncIterable<string> => {
    const entry = entries.get(name.toLowerCase());
    if (!entry) throw new InvalidInput(DAMAGED);
    declared += entry.uncompressedBytes;
    if (declared > XLSX_MAX_INFLATED_BYTES) throw new TooLarge(TOO_LARGE);
    return entryText(bytes, entry);
  };
  const has = (name: string) => entries.has(name.toLowerCase());

  const lines: Buffer[] = [];
  let size = 0;
  let rows = 0;
  let formulasWithoutResult = 0;
  try {
    // The workbook is where the package's relationships say (xl/workbook.xml as Excel saves it);
    // then what the first worksheet's cells depend on: the sheets in tab order, the shared
    // strings, which styles show dates.
    const packageParts = has('_rels/.rels') ? await readRelationships(part('_rels/.rels'), '') : [];
    const bookName = packageParts.find((r) => r.type === 'officeDocument' && !r.external)?.part ?? 'xl/workbook.xml';
    const related = has(relationshipsOf(bookName)) ? await readRelationships(part(relationshipsOf(bookName)), bookName) : [];
    const book = await readWorkbook(part(bookName));
    const first = (type: string) => related.find((r) => r.type === type && !r.external);
    const stringsPart = first('sharedStrings');
    const strings = stringsPart ? await readSharedStrings(part(stringsPart.part)) : [];
    const stylesPart = first('styles');
    const dateStyles = stylesPart ? await readDateStyles(part(stylesPart.part)) : [];
    // The first tab a person sees: visible, and a worksheet (a chart sheet holds no cells).
    const worksheets = new Map(related.filter((r) => r.type === 'worksheet' && !r.external).map((r) => [r.id, r]));
    const sheet = book.sheets.find((s) => s.state === 'visible' && worksheets.has(s.relationshipId)) ?? book.sheets.find((s) => worksheets.has(s.relationshipId));
    if (!sheet) throw new InvalidInput('The workbook has no worksheet; it needs one with a header row and at least 100 phone numbers.');
    const context: SheetContext = {
      sharedString: (index) => strings[index],
      dateStyle: (style) => dateStyles[style] ?? null,
      toDate: (serial) => serialToDate(serial, book.date1904),
      formulaWithoutResult: () => void formulasWithoutResult++,
    };
    // Read row by row; past a limit the reading stops (the rest of the sheet is never inflated).
    for await (const values of sheetRows(part(worksheets.get(sheet.relationshipId)!.part), context)) {
      rows++;
      if (rows > limits.rows) throw new InvalidInput(`The worksheet has more than ${(limits.rows - 1).toLocaleString('en-US')} rows of contacts; an upload holds at most ${MAX_NUMBERS.toLocaleString('en-US')}. Split it into smaller files.`);
      // Sparse: a cell left empty is a hole.
      const line = Buffer.from(csvLine(Array.from({ length: values.length }, (_, i) => cellText(values[i]))) + '\r\n', 'utf8');
      size += line.length;
      if (size > limits.bytes) throw new TooLarge(`The worksheet is larger than ${limits.bytes / 1024 / 1024} MB as text; split it into smaller files`);
      lines.push(line);
    }
    if (rows === 0) throw new InvalidInput(`The workbook's first worksheet ("${sheet.name}") is empty; it needs a header row and at least 100 phone numbers.`);
    return { csv: Buffer.concat(lines), sheet: sheet.name, rows, formulasWithoutResult };
  } catch (error) {
    if (error instanceof InvalidInput || error instanceof TooLarge) throw error;
    if (error instanceof PastDeclaredSize) throw new TooLarge(TOO_LARGE);
    throw new InvalidInput(DAMAGED);
  }
}
