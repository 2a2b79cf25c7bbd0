import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { InvalidInput, TooLarge } from '../platform/domain-errors';

// One way to read a workbook's XML parts (import-xlsx.ts): streamed through saxes, element names
// without their prefix (the Open XML SDK writes x:row, x:sst …), CDATA as text, and bounded, so a
// small upload cannot hold the process's memory: nesting deeper than any workbook's, and a cell's
// text longer than Excel allows, are refused while reading.

/** Deeper than any SpreadsheetML part nests (a sheet's cell text is 6 levels down). */
export const MAX_XML_DEPTH = 64;
/** Excel's own limit on a cell's text. */
export const MAX_CELL_CHARS = 32_767;
/** The most characters between two tags: a cell's text, each character escaped (&#x10FFFF;), with room to spare. */
const MAX_UNBROKEN_CHARS = 1024 * 1024;

export const DAMAGED = 'The file could not be read as an Excel workbook (.xlsx): it is damaged or is not a workbook. Open it in Excel and save it again, or save it as CSV.';
export const CELL_TOO_LONG = `A cell of the workbook holds more than ${MAX_CELL_CHARS.toLocaleString('en-US')} characters, more than Excel allows; save the sheet as CSV.`;

export interface XmlHandlers {
  open?(name: string, attributes: Record<string, string>): void;
  text?(text: string): void;
  close?(name: string): void;
}

/** An element's or attribute's name without its prefix. */
export const localName = (name: string): string => name.slice(name.indexOf(':') + 1);

/** An attribute by its local name, whatever its prefix (r:id, ns1:id). */
export function attribute(attributes: Record<string, string>, name: string): string | undefined {
  if (name in attributes) return attributes[name];
  for (const [key, value] of Object.entries(attributes)) if (localName(key) === name) return value;
  return undefined;
}

/**
 * Parses a part's text as it streams in, calling `handlers` with local names; after each chunk,
 * `between` runs (to hand on what the chunk completed). Refuses XML that is not well formed or
 * nests deeper than MAX_XML_DEPTH (damaged).
 */
export async function* readXml(xml: AsyncIterable<string>, handlers: XmlHandlers, between: () => Iterable<unknown[]> = () => []): AsyncGenerator<unknown[]> {
  const parser = new SaxesParser();
  let failure: Error | null = null;
  let depth = 0;
  /** Markup events so far, and characters since the last one (about: counted per chunk). */
  let events = 0;
  let unbroken = 0;
  parser.on('error', (error) => {
    failure ??= error;
  });
  parser.on('opentag', (tag: SaxesTagPlain) => {
    events++;
    if (++depth > MAX_XML_DEPTH) throw new InvalidInput(DAMAGED);
    handlers.open?.(localName(tag.name), tag.attributes);
  });
  parser.on('closetag', (tag) => {
    events++;
    depth--;
    handlers.close?.(localName(tag.name));
  });
  if (handlers.text) {
    parser.on('text', handlers.text);
    parser.on('cdata', handlers.text);
  }
  for await (const chunk of xml) {
    // saxes holds a text node (or a tag, a comment) whole until it ends: one longer than any cell's
    // text may be is refused before it can take the process's memory.
    const before = events;
    parser.write(chunk);
    if (failure) throw failure;
    unbroken = events === before ? unbroken + chunk.length : chunk.length - (chunk.lastIndexOf('>') + 1);
    if (unbroken > MAX_UNBROKEN_CHARS) throw new TooLarge(CELL_TOO_LONG);
    yield* between();
  }
  parser.close();
  if (failure) throw failure;
  yield* between();
}

/** Reads a whole part for what its handlers collect (a part with no rows to hand on). */
export async function readWholeXml(xml: AsyncIterable<string>, handlers: XmlHandlers): Promise<void> {
  for await (const _ of readXml(xml, handlers));
}

/**
 * Text that grows as a part's text events come: refused (TooLarge) past `max` characters, so one
 * cell or string cannot take the process's memory.
 */
export class BoundedText {
  value = '';
  constructor(private readonly max = MAX_CELL_CHARS) {}
  add(text: string): void {
    if (this.value.length + text.length > this.max) throw new TooLarge(CELL_TOO_LONG);
    this.value += text;
  }
}

/** Excel's escapes for characters XML cannot hold (_x000D_ is a carriage return; _x005F_ a literal underscore). */
export const unescapeExcel = (text: string): string => (text.includes('_x') ? text.replace(/_x([0-9A-Fa-f]{4})_/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))) : text);
