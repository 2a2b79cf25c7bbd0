import { SaxesParser, type SaxesTagPlain } from 'saxes';

// A worksheet's rows as the values its cells hold, read from the sheet's XML as a stream of text
// (import-xlsx.ts). exceljs's own worksheet reader reads a formula's cached result as a number
// whatever its type, so a formula's TRUE came out 1, #DIV/0! empty, a date a serial number, and
// it drops a result of 0; here a cell's type attribute decides, whether or not it holds a formula.

/** What a sheet's cells refer to: the workbook's strings and number formats. */
export interface SheetContext {
  /** The shared string at an index: text, or rich text ({ richText }) as exceljs caches it. */
  sharedString(index: number): unknown;
  /** Whether the style at this index shows its number as a date. */
  isDate(style: number): boolean;
  /** A date serial as a Date (1900 or 1904 system, as the workbook says). */
  toDate(serial: number): Date;
}

/** A cell's value (what cell-text.ts reads): text, number, boolean, Date, { error }, rich text; undefined when empty. */
export function cellValue(type: string | undefined, value: string | undefined, inline: string | undefined, style: number, context: SheetContext): unknown {
  switch (type) {
    case 's':
      return value === undefined ? undefined : context.sharedString(Number(value));
    case 'inlineStr':
      return inline ?? value;
    case 'str':
      return value ?? '';
    case 'b':
      return value === undefined ? undefined : Number(value) !== 0;
    case 'e':
      return value === undefined ? undefined : { error: value };
    case 'd': {
      if (value === undefined) return undefined;
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : date;
    }
    default: {
      if (value === undefined || value.trim() === '') return undefined;
      const n = Number(value);
      if (!Number.isFinite(n)) return value;
      return context.isDate(style) ? context.toDate(n) : n;
    }
  }
}

/** A cell reference's column, from 0: A1 → 0, AB7 → 27; null when it names none. */
export function columnIndex(ref: string): number | null {
  const letters = /^[A-Za-z]{1,3}/.exec(ref)?.[0];
  if (!letters) return null;
  let n = 0;
  for (const c of letters.toUpperCase()) n = n * 26 + (c.charCodeAt(0) - 64);
  return n - 1;
}

/** An element's name without its prefix: some writers (the Open XML SDK) spell the sheet's elements x:row, x:c. */
const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/**
 * Each row of the sheet, in order, as its cells' values placed by column (a column left empty is
 * a hole). Rows the sheet leaves out (empty ones) are not yielded.
 */
export async function* sheetRows(xml: AsyncIterable<string>, context: SheetContext): AsyncGenerator<unknown[]> {
  const parser = new SaxesParser();
  let failure: Error | null = null;
  parser.on('error', (error) => {
    failure ??= error;
  });
  const done: unknown[][] = [];
  let row: unknown[] | null = null;
  let cell: { type?: string; style: number; column: number; value?: string; inline?: string } | null = null;
  /** Where text goes: the cell's <v>, or an inline string's <t> (not its phonetic runs, <rPh>). */
  let capture: 'value' | 'inline' | null = null;
  let inPhonetic = false;
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const attributes = tag.attributes;
    switch (localName(tag.name)) {
      case 'row':
        row = [];
        break;
      case 'c': {
        if (!row) break;
        const column = attributes.r === undefined ? row.length : columnIndex(attributes.r);
        cell = { type: attributes.t, style: Number(attributes.s ?? 0), column: column ?? row.length };
        break;
      }
      case 'v':
        if (cell) {
          cell.value = '';
          capture = 'value';
        }
        break;
      case 'rPh':
        inPhonetic = true;
        break;
      case 't':
        if (cell && !inPhonetic) {
          cell.inline ??= '';
          capture = 'inline';
        }
        break;
    }
  });
  parser.on('text', (text) => {
    if (!cell || capture === null) return;
    if (capture === 'value') cell.value += text;
    else cell.inline += text;
  });
  parser.on('closetag', (tag) => {
    switch (localName(tag.name)) {
      case 'v':
      case 't':
        capture = null;
        break;
      case 'rPh':
        inPhonetic = false;
        break;
      case 'c':
        if (row && cell) {
          const value = cellValue(cell.type, cell.value, cell.inline, cell.style, context);
          if (value !== undefined) row[cell.column] = value;
        }
        cell = null;
        break;
      case 'row':
        if (row) done.push(row);
        row = null;
        break;
    }
  });
  for await (const chunk of xml) {
    parser.write(chunk);
    if (failure) throw failure;
    yield* done.splice(0);
  }
  parser.close();
  if (failure) throw failure;
  yield* done.splice(0);
}
