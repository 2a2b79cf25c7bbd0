import { createRequire } from 'node:module';
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
