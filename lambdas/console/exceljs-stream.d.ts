// exceljs's workbook parsers, used part by part (import-xlsx.ts): its WorkbookReader's own pass
// over the zip loses entries under load (exceljs/exceljs#3064), so the zip is read through its
// directory here and the relationships, workbook, shared strings and styles handed to the
// reader's parsers (the worksheet itself is read by sheet-rows.ts). These are the shapes used, in
// exceljs 4.4.0; test/unit/console/import-xlsx.test.ts exercises every one of them.
declare module 'exceljs/lib/stream/xlsx/workbook-reader.js' {
  import type { Readable } from 'node:stream';
  export interface Relationship {
    Id: string;
    Type: string;
    Target: string;
    TargetMode?: string;
  }
  export interface SheetEntry {
    id: number;
    name: string;
    rId: string;
    state?: string;
  }
  export default class WorkbookReader {
    constructor(input: undefined, options: { sharedStrings: 'cache'; styles: 'cache'; hyperlinks: 'ignore'; entries: 'ignore'; worksheets: 'emit' });
    workbookRels?: Relationship[];
    model?: { sheets?: SheetEntry[] };
    _parseRels(part: Readable): Promise<void>;
    _parseWorkbook(part: Readable): Promise<void>;
    _parseSharedStrings(part: Readable): AsyncGenerator<unknown>;
    _parseStyles(part: Readable): Promise<void>;
    /** After _parseSharedStrings: each string, as text or { richText }. */
    sharedStrings?: unknown[];
    /** After _parseStyles: a cell style's number format. */
    styles: { getStyleModel(index: number): { numFmt?: string } | null };
    /** After _parseWorkbook. */
    properties?: { model?: { date1904?: boolean } };
  }
}

declare module 'exceljs/lib/utils/utils.js' {
  const utils: {
    /** Whether a number format shows a date or a time. */
    isDateFmt(format: string | undefined): boolean;
    /** A date serial as a Date, in the 1900 or the 1904 system. */
    excelToDate(serial: number, date1904: boolean): Date;
  };
  export default utils;
}
