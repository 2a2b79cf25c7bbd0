import { classifyKey } from '../results';
import type { WorkRow } from '../plan';
import type { StoredRows } from '../work-file';

// Which distinct item (the thing classified once: a number, with identity the number and the name)
// each cell of an upload is. Prepare numbers the items in file order and writes them in chunks;
// this index lets finalize join the chunk answers to the cells by position, without the items'
// keys, the names or a map of 250,000 strings.

/** A cell with no number. */
export const BLANK = -1;
/** A cell whose number is not valid. */
export const INVALID = -2;

export interface CellItems {
  columns: number;
  /** Per cell (row-major): the item number, BLANK or INVALID. */
  cells: Int32Array;
  /** Per item: 1 when it carries a name (identity is matched against it). */
  named: Uint8Array;
}

export interface ChunkItem {
  key: string;
  e164: string;
  name?: WorkRow['name'];
}

/**
 * Numbers the distinct items in file order (deterministic, so a retried step writes the same
 * chunks), yielding each once as it is met; returns the index. Items are told apart by number
 * first (the number strings are the stored ones: no key string is built per cell) and, with
 * identity, by name only when one number comes with several names.
 */
export function* numberItems(rows: StoredRows, columns: number, identity: boolean): Generator<ChunkItem, CellItems> {
  const { numbers, names } = rows;
  const cells = new Int32Array(numbers.length);
  const byNumber = new Map<string, number>();
  // Items whose number was already met with another name, by their full key.
  const byKey = new Map<string, number>();
  // Sized for the most items there can be (one per cell), so they never grow: grown arrays of
  // 250,000 entries left their earlier copies as garbage in V8's large-object space.
  const named = new Uint8Array(numbers.length);
  const itemRow = new Uint32Array(numbers.length);
  let count = 0;
  for (let i = 0; i < numbers.length; i++) {
    const n = numbers[i];
    if (n === '' || n === undefined) {
      cells[i] = BLANK;
      continue;
    }
    if (n === null) {
      cells[i] = INVALID;
      continue;
    }
    const row = Math.floor(i / columns);
    const name = identity ? names?.[row] || undefined : undefined;
    let item = byNumber.get(n);
    if (item !== undefined && identity && !sameName(names?.[itemRow[item]!] || undefined, name)) item = byKey.get(classifyKey(n, name, identity));
    if (item === undefined) {
      item = count++;
      if (!byNumber.has(n)) byNumber.set(n, item);
      else byKey.set(classifyKey(n, name, identity), item);
      named[item] = name ? 1 : 0;
      itemRow[item] = row;
      yield name ? { key: classifyKey(n, name, identity), e164: n, name } : { key: classifyKey(n, name, identity), e164: n };
    }
    cells[i] = item;
  }
  return { columns, cells, named: named.slice(0, count) };
}

/** Two names are one when classifyKey would make one key of them. */
const sameName = (a: WorkRow['name'] | undefined, b: WorkRow['name'] | undefined): boolean =>
  a === b || (a !== undefined && b !== undefined && a.full === b.full && a.first === b.first && a.last === b.last && Object.keys(a).length === Object.keys(b).length);

/** The index alone, items not wanted (an upload prepared before the index was stored). */
export function cellItemsOf(rows: StoredRows, columns: number, identity: boolean): CellItems {
  const items = numberItems(rows, columns, identity);
  for (;;) {
    const next = items.next();
    if (next.done) return next.value;
  }
}

/** Stored as bytes: columns, cell count, item count (uint32 each), the cells, the named flags. */
export function serializeCellItems(index: CellItems): Buffer {
  const head = Buffer.alloc(12);
  head.writeUInt32LE(index.columns, 0);
  head.writeUInt32LE(index.cells.length, 4);
  head.writeUInt32LE(index.named.length, 8);
  return Buffer.concat([head, Buffer.from(index.cells.buffer, index.cells.byteOffset, index.cells.byteLength), Buffer.from(index.named)]);
}

export function parseCellItems(bytes: Buffer): CellItems {
  const columns = bytes.readUInt32LE(0);
  const cellCount = bytes.readUInt32LE(4);
  const items = bytes.readUInt32LE(8);
  const cells = new Int32Array(cellCount);
  Buffer.from(cells.buffer).set(bytes.subarray(12, 12 + cellCount * 4));
  const named = new Uint8Array(items);
  named.set(bytes.subarray(12 + cellCount * 4, 12 + cellCount * 4 + items));
  return { columns, cells, named };
}
