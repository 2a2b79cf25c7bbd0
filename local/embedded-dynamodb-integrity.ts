import { closeSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

// dynalite writes a secondary index entry and its item as separate LevelDB writes (it deletes and
// puts the index entries, then puts the item), so a kill -9 between them leaves an index showing a
// state its item never reached: an entry for an item that does not exist, an entry the item no
// longer has, or none for the item it has. This pass rebuilds every index from the items, which are
// the truth: it runs on the data folder before dynalite opens it, after a stop that was not clean.
//
// The layout read here is dynalite's (node_modules/dynalite/db/index.js): one LevelDB with JSON
// values, keys prefixed by their sublevel: `table~<name>` (the table's description),
// `item-<table>~<item key>` (items in attribute-value form) and
// `index-<local|global>~<table>~<index>~<index key>` (the item's projection); the index entries an
// item has are what dynalite's own `getIndexActions` derives from it.

const require = createRequire(import.meta.url);
const dynaliteRequire = createRequire(require.resolve('dynalite'));
const { Level } = dynaliteRequire('level') as { Level: new (path: string, options: { valueEncoding: 'json' }) => LevelStore };
const dynaliteDb = dynaliteRequire('./db') as { getIndexActions: GetIndexActions };

interface LevelStore {
  open(): Promise<void>;
  keys(): AsyncIterable<string>;
  close(): Promise<void>;
  iterator(range: { gte: string; lt: string }): AsyncIterable<[string, unknown]>;
  batch(ops: ({ type: 'put'; key: string; value: unknown } | { type: 'del'; key: string })[]): Promise<void>;
}
interface TableDescription {
  TableName: string;
  LocalSecondaryIndexes?: unknown[];
  GlobalSecondaryIndexes?: unknown[];
}
type GetIndexActions = (indexes: unknown[], existing: unknown, item: unknown, table: TableDescription) => { puts: { index: string; key: string; item: unknown }[] };

const INDEX_TYPES = ['Local', 'Global'] as const;
const BATCH = 500;
const END = '\xFF'; // dynalite's own upper bound for a sublevel's keys

export interface IndexRepair {
  /** Index entries whose item is gone or no longer has them, or whose copy differs from the item. */
  removed: number;
  /** Entries an item has that its index lacked (or held a different copy of). */
  added: number;
}

/** Rebuilds every secondary index in the dynalite LevelDB at `dir` from its items. */
export async function rebuildIndexes(dir: string): Promise<IndexRepair> {
  const store = new Level(dir, { valueEncoding: 'json' });
  await store.open();
  const repair: IndexRepair = { removed: 0, added: 0 };
  try {
    const tables: TableDescription[] = [];
    for await (const [, table] of store.iterator({ gte: 'table~', lt: `table~${END}` })) tables.push(table as TableDescription);
    for (const table of tables) {
      const expected = await expectedEntries(store, table);
      const ops: Parameters<LevelStore['batch']>[0] = [];
      const flush = async (): Promise<void> => {
        if (ops.length) await store.batch(ops.splice(0));
      };
      for (const type of INDEX_TYPES) {
        const prefix = `index-${type.toLowerCase()}~${table.TableName}~`;
        for await (const [key, value] of store.iterator({ gte: prefix, lt: `${prefix}${END}` })) {
          const wanted = expected.get(key);
          if (wanted !== undefined && isDeepStrictEqual(wanted, value)) {
            expected.delete(key); // present and right
            continue;
          }
          if (wanted === undefined) {
            ops.push({ type: 'del', key });
            repair.removed++;
          }
          if (ops.length >= BATCH) await flush();
        }
      }
      // What is left is missing or held a different copy: written as the item says.
      for (const [key, value] of expected) {
        ops.push({ type: 'put', key, value });
        repair.added++;
        if (ops.length >= BATCH) await flush();
      }
      await flush();
    }
  } finally {
    await store.close();
  }
  return repair;
}

/** Every index entry the table's items imply, by full LevelDB key, with the value dynalite writes. */
async function expectedEntries(store: LevelStore, table: TableDescription): Promise<Map<string, unknown>> {
  const expected = new Map<string, unknown>();
  const items = `item-${table.TableName}~`;
  for await (const [, item] of store.iterator({ gte: items, lt: `${items}${END}` })) {
    for (const type of INDEX_TYPES) {
      const { puts } = dynaliteDb.getIndexActions(table[`${type}SecondaryIndexes`] ?? [], null, item, table);
      // Through JSON, as LevelDB stores it (dynalite builds projections on null-prototype objects).
      for (const put of puts) expected.set(`index-${type.toLowerCase()}~${table.TableName}~${put.index}~${put.key}`, JSON.parse(JSON.stringify(put.item)));
    }
  }
  return expected;
}

/**
 * The embedded table's files cannot be read (a damaged or missing `.ldb`, a damaged MANIFEST): the
 * start is refused with what to do, instead of dynalite's crash at the first read. Its message is
 * one line, as bin/local.ts and the admin CLI print a refusal.
 */
export class DamagedTableError extends Error {
  constructor(
    readonly dir: string,
    readonly files: string[],
    readonly reason: string,
  ) {
    const what = files.length ? `${files.join(', ')} in ${dir}` : `the embedded table's files in ${dir}`;
    super(
      `${what} cannot be read (LevelDB: ${reason}), so the service did not start; nothing in the data folder was repaired or removed. ` +
        `Restore the data folder ${dirname(dir)} (DATA_DIR) from a backup taken while the service was stopped, then start again`,
    );
    this.name = 'DamagedTableError';
  }
}

/**
 * Reads every key of the dynalite LevelDB at `dir` (every table file's blocks, about 1.3 µs a key
 * on the 2-core machine), so that damage is found before the store answers anyone; throws
 * DamagedTableError when LevelDB reports it. Run before anything in the folder is changed.
 */
export async function checkTableReadable(dir: string): Promise<void> {
  const store = new Level(dir, { valueEncoding: 'json' });
  try {
    await store.open();
    for await (const _ of store.keys());
  } catch (error) {
    const damage = tableDamage(error);
    if (!damage) throw error;
    throw new DamagedTableError(dir, damage.file ? [basename(damage.file)] : damagedTableFiles(dir), damage.reason);
  } finally {
    await store.close().catch(() => undefined);
  }
}

/**
 * Whether a LevelDB error says its files are damaged (not that the folder is locked or not ours to
 * read), with LevelDB's reason and the file it names, if any. `Database failed to open` carries
 * the reason as its cause.
 */
export function tableDamage(error: unknown): { reason: string; file: string | null } | null {
  const e = error as { code?: string; message?: string; cause?: { code?: string; message?: string } } | null;
  const inner = e?.code === 'LEVEL_DATABASE_NOT_OPEN' && e.cause ? e.cause : e;
  const reason = inner?.message ?? '';
  const damaged = inner?.code === 'LEVEL_CORRUPTION' || (inner?.code === 'LEVEL_IO_ERROR' && !/permission denied/i.test(reason));
  if (!damaged) return null;
  return { reason, file: /(\/\S+\.(?:ldb|sst|log))\b/.exec(reason)?.[1] ?? null };
}

/** LevelDB's table magic number, the last 8 bytes of every whole `.ldb`/`.sst` file (little-endian). */
const TABLE_MAGIC = Buffer.from('57fb808b247547db', 'hex');
/** A table's footer: two block handles padded to 40 bytes, then the magic number. */
const FOOTER_BYTES = 48;

/** Whether a table file's last bytes are a LevelDB footer (a truncated or overwritten file's are not). */
export const hasTableFooter = (tail: Buffer): boolean => tail.length >= FOOTER_BYTES && tail.subarray(tail.length - TABLE_MAGIC.length).equals(TABLE_MAGIC);

/** The table files in `dir` whose footer is not whole: which file to name when LevelDB's reason names none. */
export function damagedTableFiles(dir: string): string[] {
  const damaged: string[] = [];
  for (const name of readdirSync(dir).filter((n) => /\.(ldb|sst)$/.test(n)).sort()) {
    const path = join(dir, name);
    const size = statSync(path).size;
    const tail = Buffer.alloc(Math.min(size, FOOTER_BYTES));
    const fd = openSync(path, 'r');
    try {
      readSync(fd, tail, 0, tail.length, size - tail.length);
    } finally {
      closeSync(fd);
    }
    if (!hasTableFooter(tail)) damaged.push(name);
  }
  return damaged;
}
