// exceljs's streaming readers, used part by part (import-xlsx.ts): its WorkbookReader's own pass
// over the zip loses entries under load (exceljs/exceljs#3064), so the zip is read through its
// directory here and each part handed to the reader's parsers. These are the parsers' shapes in
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
  }
}

declare module 'exceljs/lib/stream/xlsx/worksheet-reader.js' {
  import type { Readable } from 'node:stream';
  import type WorkbookReader from 'exceljs/lib/stream/xlsx/workbook-reader.js';
  export default class WorksheetReader implements AsyncIterable<{ values: unknown }> {
    constructor(init: { workbook: WorkbookReader; id: number; iterator: Readable; options: { worksheets: 'emit'; hyperlinks: 'ignore' } });
    name: string;
    [Symbol.asyncIterator](): AsyncIterator<{ values: unknown }>;
  }
}
