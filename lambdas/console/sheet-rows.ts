import { InvalidInput } from '../platform/domain-errors';
import type { DateStyle } from './number-format';
import { BoundedText, DAMAGED, readXml, unescapeExcel } from './xlsx-xml';
import { twoDigits } from './cell-text';

// A worksheet's rows as the values its cells hold, read from the sheet's XML as a stream of text
// (import-xlsx.ts). A cell's type attribute decides its value, whether or not it holds a formula
// (exceljs's reader read every formula's result as a number: TRUE came out 1, #DIV/0! empty, a
// date its serial, a result of 0 nothing). Bounded: a cell's text as Excel's, columns to XFD.

/** Excel's last column, XFD. */
export const MAX_COLUMNS = 16_384;

/** What a sheet's cells refer to: the workbook's strings and number formats. */
export interface SheetContext {
  /** The shared string at an index. */
  sharedString(index: number): string | undefined;
  /** What the style at this index shows of a date serial (null: the number). */
  dateStyle(style: number): DateStyle | null;
  /** A date serial as a Date (1900 or 1904 system, as the workbook says). */
  toDate(serial: number): Date;
  /** Told of each formula saved without its result (not computed by the program that wrote the file): its cell reads empty. */
  formulaWithoutResult?(): void;
}

/** A cell's value (what cell-text.ts reads): text, number, boolean, Date, { error }; undefined when empty. */
function cellValue(type: string | undefined, value: string | undefined, inline: string | undefined, style: number, context: SheetContext): unknown {
  switch (type) {
    case 's':
      return value === undefined ? undefined : context.sharedString(Number(value));
    case 'inlineStr':
      return unescapeExcel(inline ?? value ?? '');
    case 'str':
      return unescapeExcel(value ?? '');
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
      const shown = context.dateStyle(style);
      if (shown === null) return n;
      if (shown === 'date') return context.toDate(n);
      // A time of day (the serial's fraction), or a duration in whole hours ([h]:mm:ss): as Excel shows them, not a day of 1899.
      const seconds = Math.round((shown === 'time' ? n - Math.floor(n) : Math.abs(n)) * 86_400);
      const hours = Math.floor(seconds / 3600);
      return `${n < 0 && shown === 'duration' ? '-' : ''}${shown === 'time' ? twoDigits(hours % 24) : hours}:${twoDigits(Math.floor(seconds / 60) % 60)}:${twoDigits(seconds % 60)}`;
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

/**
 * Each row of the sheet that holds a value, in order, its cells' values placed by column (a column
 * left empty is a hole). Rows the sheet leaves out, and rows whose cells are only formatted, are
 * not yielded (a pre-formatted range is not contacts).
 */
export async function* sheetRows(xml: AsyncIterable<string>, context: SheetContext): AsyncGenerator<unknown[]> {
  const done: unknown[][] = [];
  let row: unknown[] | null = null;
  /** Where a cell without a reference goes: after the last cell, empty or not. */
  let nextColumn = 0;
  let cell: { type?: string; style: number; column: number; formula?: boolean; value?: BoundedText; inline?: BoundedText } | null = null;
  /** Where text goes: the cell's <v>, or an inline string's <t> (not its phonetic runs, <rPh>). */
  let capture: BoundedText | null = null;
  let inPhonetic = false;
  yield* readXml(
    xml,
    {
      open(name, attributes) {
        switch (name) {
          case 'row':
            row = [];
            nextColumn = 0;
            break;
          case 'c': {
            if (!row) break;
            const column = attributes.r === undefined ? nextColumn : columnIndex(attributes.r);
            if (column === null || column >= MAX_COLUMNS) throw new InvalidInput(DAMAGED);
            cell = { type: attributes.t, style: Number(attributes.s ?? 0), column };
            nextColumn = column + 1;
            break;
          }
          case 'v':
            if (cell) capture = cell.value = new BoundedText();
            break;
          case 'f':
            if (cell) cell.formula = true;
            break;
          case 'rPh':
            inPhonetic = true;
            break;
          case 't':
            if (cell && !inPhonetic) capture = cell.inline ??= new BoundedText();
            break;
        }
      },
      text(text) {
        capture?.add(text);
      },
      close(name) {
        switch (name) {
          case 'v':
          case 't':
            capture = null;
            break;
          case 'rPh':
            inPhonetic = false;
            break;
          case 'c':
            if (row && cell) {
              if (cell.formula && cell.value === undefined) context.formulaWithoutResult?.();
              const value = cellValue(cell.type, cell.value?.value, cell.inline?.value, cell.style, context);
              if (value !== undefined && value !== '') row[cell.column] = value;
            }
            cell = null;
            break;
          case 'row':
            if (row && row.length > 0) done.push(row);
            row = null;
            break;
        }
      },
    },
    () => done.splice(0),
  );
}
