import { posix } from 'node:path';
import { InvalidInput, TooLarge } from '../platform/domain-errors';
import { dateStyleOf, type DateStyle } from './number-format';
import { attribute, BoundedText, DAMAGED, readWholeXml, unescapeExcel } from './xlsx-xml';

// The parts of a workbook the first worksheet's cells depend on (import-xlsx.ts), each read with
// only what the import needs kept, within bounds: the package's relationships, the workbook's
// sheets in tab order, its shared strings as plain text, and which cell styles show dates or times.

/** More than any workbook lists: relationships of a part, and sheets of a workbook. */
const MAX_ENTRIES = 10_000;
/** Excel's limit on cell formats is 64,000. */
const MAX_CELL_STYLES = 65_536;
/** Shared strings kept at most: 250,000 contacts with ten distinct texts each. */
export const MAX_SHARED_STRINGS = 2_500_000;
/** Characters of shared strings kept at most (the CSV an upload may become is 100 MB). */
export const MAX_SHARED_CHARS = 100 * 1024 * 1024;

export interface Relationship {
  id: string;
  /** The relationship type's last segment: officeDocument, worksheet, sharedStrings, styles… */
  type: string;
  /** The part it points to, as a name in the zip (resolved against the source part's folder). */
  part: string;
  external: boolean;
}

/** The relationships of the part at `source` ('' for the package's own, _rels/.rels). */
export async function readRelationships(xml: AsyncIterable<string>, source: string): Promise<Relationship[]> {
  const found: Relationship[] = [];
  await readWholeXml(xml, {
    open(name, attributes) {
      if (name !== 'Relationship') return;
      if (found.length >= MAX_ENTRIES) throw new InvalidInput(DAMAGED);
      const target = attributes.Target ?? '';
      found.push({ id: attributes.Id ?? '', type: (attributes.Type ?? '').split('/').pop() ?? '', part: partName(source, target), external: attributes.TargetMode === 'External' });
    },
  });
  return found;
}

/** Where a relationship's target is in the zip: absolute from the package's root, or relative to the source part's folder; percent-escapes decoded. */
export function partName(source: string, target: string): string {
  let decoded = target;
  try {
    decoded = decodeURIComponent(target);
  } catch {
    // Not an escaped name: used as written.
  }
  if (decoded.startsWith('/')) return posix.normalize(decoded.slice(1));
  return posix.normalize(posix.join(posix.dirname(source), decoded)).replace(/^(\.\.\/)+/, '');
}

/** Where the relationships of the part `name` are: `<folder>/_rels/<file>.rels`. */
export const relationshipsOf = (name: string): string => posix.join(posix.dirname(name), '_rels', `${posix.basename(name)}.rels`);

export interface SheetEntry {
  name: string;
  relationshipId: string;
  /** visible, hidden or veryHidden. */
  state: string;
}

export interface WorkbookPart {
  /** In tab order. */
  sheets: SheetEntry[];
  date1904: boolean;
}

/** The workbook's sheets in tab order and its date system; everything else in it (defined names…) is read through, not kept. */
export async function readWorkbook(xml: AsyncIterable<string>): Promise<WorkbookPart> {
  const workbook: WorkbookPart = { sheets: [], date1904: false };
  await readWholeXml(xml, {
    open(name, attributes) {
      if (name === 'workbookPr') workbook.date1904 = ['1', 'true'].includes((attributes.date1904 ?? '').trim().toLowerCase());
      if (name !== 'sheet') return;
      if (workbook.sheets.length >= MAX_ENTRIES) throw new InvalidInput(DAMAGED);
      workbook.sheets.push({ name: attributes.name ?? '', relationshipId: attribute(attributes, 'id') ?? '', state: attributes.state ?? 'visible' });
    },
  });
  return workbook;
}

const TOO_MANY_STRINGS = `The workbook holds more than ${MAX_SHARED_STRINGS.toLocaleString('en-US')} different texts, or more than ${MAX_SHARED_CHARS / 1024 / 1024} MB of them; save the sheet as CSV, or split it into smaller files.`;

/**
 * The shared strings as plain text: a rich text's runs joined, its phonetic guide (<rPh>) left out,
 * whitespace between elements ignored, Excel's _xHHHH_ escapes decoded.
 */
export async function readSharedStrings(xml: AsyncIterable<string>, limits = { count: MAX_SHARED_STRINGS, chars: MAX_SHARED_CHARS }): Promise<string[]> {
  const strings: string[] = [];
  let chars = 0;
  let current: BoundedText | null = null;
  let inText = false;
  let inPhonetic = false;
  await readWholeXml(xml, {
    open(name) {
      if (name === 'si') current = new BoundedText();
      else if (name === 'rPh') inPhonetic = true;
      else if (name === 't' && current && !inPhonetic) inText = true;
    },
    text(text) {
      if (inText) current!.add(text);
    },
    close(name) {
      if (name === 't') inText = false;
      else if (name === 'rPh') inPhonetic = false;
      else if (name === 'si' && current) {
        const text = unescapeExcel(current.value);
        chars += text.length;
        if (strings.length >= limits.count || chars > limits.chars) throw new TooLarge(TOO_MANY_STRINGS);
        strings.push(text);
        current = null;
      }
    },
  });
  return strings;
}

/** For each cell style (its index in <cellXfs>), what it shows of a date serial (null: a number). */
export async function readDateStyles(xml: AsyncIterable<string>): Promise<(DateStyle | null)[]> {
  const codes = new Map<number, string>();
  const formats: number[] = [];
  let inCellXfs = false;
  await readWholeXml(xml, {
    open(name, attributes) {
      if (name === 'numFmt' && codes.size < MAX_CELL_STYLES) codes.set(Number(attributes.numFmtId), attributes.formatCode ?? '');
      else if (name === 'cellXfs') inCellXfs = true;
      else if (name === 'xf' && inCellXfs) {
        if (formats.length >= MAX_CELL_STYLES) throw new InvalidInput(DAMAGED);
        formats.push(Number(attributes.numFmtId ?? 0));
      }
    },
    close(name) {
      if (name === 'cellXfs') inCellXfs = false;
    },
  });
  return formats.map((id) => dateStyleOf(id, codes.get(id)));
}
