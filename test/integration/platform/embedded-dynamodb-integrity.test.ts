import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { ensureTable, startEmbeddedDynamo, type EmbeddedDynamo } from '../../../local/embedded-dynamodb';
import { DamagedTableError, rebuildIndexes } from '../../../local/embedded-dynamodb-integrity';
import { tempDir } from '../../support/temp-dirs';

// The embedded table's integrity pass: index entries disagreeing with their items (what a kill -9
// between dynalite's index write and its item write leaves) are rebuilt from the items.

const require = createRequire(import.meta.url);
const dynaliteRequire = createRequire(require.resolve('dynalite'));
type AttributeItem = Record<string, { S: string }>;
const { Level } = dynaliteRequire('level') as {
  Level: new (path: string, o: { valueEncoding: 'json' }) => {
    open(): Promise<void>;
    close(): Promise<void>;
    get(k: string): Promise<unknown>;
    put(k: string, v: unknown): Promise<void>;
    del(k: string): Promise<void>;
    iterator(r: { gte: string; lt: string }): AsyncIterable<[string, AttributeItem]>;
  };
};
const { getIndexActions } = dynaliteRequire('./db') as {
  getIndexActions: (indexes: unknown[], existing: unknown, item: unknown, table: unknown) => { puts: { index: string; key: string }[] };
};

const TABLE = 'integrity-test';
// ensureTable's client takes the SDK's own configuration, as the local runtime sets it.
process.env.AWS_ACCESS_KEY_ID ??= 'local';
process.env.AWS_SECRET_ACCESS_KEY ??= 'local';
const dirs: string[] = [];
const open: EmbeddedDynamo[] = [];
afterEach(async () => {
  while (open.length) await open.pop()!.close();
  while (dirs.length) rmSync(dirs.pop()!, { recursive: true, force: true });
});

async function started(dir: string): Promise<{ store: EmbeddedDynamo; client: DynamoDBDocumentClient }> {
  const store = await startEmbeddedDynamo(dir);
  open.push(store);
  await ensureTable(store.endpoint, TABLE);
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: store.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'x', secretAccessKey: 'x' } }));
  return { store, client };
}

async function closed(store: EmbeddedDynamo): Promise<void> {
  open.splice(open.indexOf(store), 1);
  await store.close();
}

const watched = async (client: DynamoDBDocumentClient): Promise<string[]> =>
  ((await client.send(new QueryCommand({ TableName: TABLE, IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk = :pk', ExpressionAttributeValues: { ':pk': 'WATCH' } }))).Items ?? []).map(
    (i) => `${String(i.id)}@${String(i.gsi2sk)}`,
  );

/** Writes three watched items, then tampers with the index entries in LevelDB as a torn write would. */
async function tornIndexes(dir: string): Promise<void> {
  const { store, client } = await started(dir);
  for (const id of ['a', 'b', 'c']) await client.send(new PutCommand({ TableName: TABLE, Item: { pk: `U#${id}`, sk: 'U', id, gsi2pk: 'WATCH', gsi2sk: `2026-01-01#${id}` } }));
  client.destroy();
  await closed(store);
  const level = new Level(dir, { valueEncoding: 'json' });
  await level.open();
  const prefix = `index-global~${TABLE}~gsi2~`;
  const entries = new Map<string, string>();
  for await (const [key, value] of level.iterator({ gte: prefix, lt: `${prefix}\xFF` })) entries.set(value.id!.S, key);
  expect([...entries.keys()].sort()).toEqual(['a', 'b', 'c']);
  const table = (await level.get(`table~${TABLE}`)) as { GlobalSecondaryIndexes: unknown[] };
  const keyOf = (item: AttributeItem): string => prefix + getIndexActions(table.GlobalSecondaryIndexes, null, item, table).puts.find((p) => p.index === 'gsi2')!.key;
  const watchedItem = (id: string, at: string): AttributeItem => ({ pk: { S: `U#${id}` }, sk: { S: 'U' }, id: { S: id }, gsi2pk: { S: 'WATCH' }, gsi2sk: { S: `${at}#${id}` } });
  // a: its entry gone (the old entry deleted, the new one never written);
  await level.del(entries.get('a')!);
  // b: its entry holds a state the item never reached (the index moved, the item was not written);
  await level.del(entries.get('b')!);
  await level.put(keyOf(watchedItem('b', '2026-06-01')), watchedItem('b', '2026-06-01'));
  // z: an entry for an item that was never written.
  await level.put(keyOf(watchedItem('z', '2026-01-01')), watchedItem('z', '2026-01-01'));
  await level.close();
}

describe('embedded table integrity after an unclean stop', () => {
  it('rebuildIndexes puts back every missing entry and removes every entry its item does not have', async () => {
    const dir = tempDir('pvs-integrity-');
    dirs.push(dir);
    await tornIndexes(join(dir, 'db'));
    expect(await rebuildIndexes(join(dir, 'db'))).toEqual({ removed: 2, added: 2 });
    expect(await rebuildIndexes(join(dir, 'db'))).toEqual({ removed: 0, added: 0 });
  });

  it('a start without the clean-stop mark rebuilds before answering; a clean stop leaves the mark and a start takes it', async () => {
    const dir = tempDir('pvs-integrity-');
    dirs.push(dir);
    const path = join(dir, 'db');
    await tornIndexes(path);
    expect(existsSync(`${path}.closed-cleanly`)).toBe(true);
    rmSync(`${path}.closed-cleanly`); // as a kill -9 would have left it
    const { store, client } = await started(path);
    expect(existsSync(`${path}.closed-cleanly`)).toBe(false);
    expect((await watched(client)).sort()).toEqual(['a@2026-01-01#a', 'b@2026-01-01#b', 'c@2026-01-01#c']);
    client.destroy();
    await closed(store);
    expect(existsSync(`${path}.closed-cleanly`)).toBe(true);
  });

  it('a start after a clean stop does not rebuild (the torn entries, written behind its back, stay)', async () => {
    const dir = tempDir('pvs-integrity-');
    dirs.push(dir);
    const path = join(dir, 'db');
    await tornIndexes(path);
    const { client } = await started(path);
    expect(await watched(client)).toHaveLength(3); // b at its torn place, z, c; a missing
    expect((await watched(client)).some((w) => w.startsWith('z@'))).toBe(true);
    client.destroy();
  });
});

describe('a damaged table file', () => {
  it('refuses the start naming the file, before the clean-stop mark or any file is touched', async () => {
    const dir = tempDir('pvs-integrity-');
    dirs.push(dir);
    const path = join(dir, 'db');
    await tableWithTableFile(path);
    const ldb = readdirSync(path).find((n) => n.endsWith('.ldb'))!;
    writeFileSync(join(path, ldb), Buffer.alloc(readFileSync(join(path, ldb)).length, 7)); // overwritten: no longer a table
    const refused = await startEmbeddedDynamo(path).then(
      (store) => (open.push(store), null),
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(DamagedTableError);
    expect((refused as Error).message).toContain(`${ldb} in ${path} cannot be read (LevelDB: Corruption: not an sstable (bad magic number)), so the service did not start; nothing in the data folder was repaired or removed. Restore the data folder ${dir} (DATA_DIR) from a backup`);
    expect((refused as Error).message).not.toContain('\n');
    expect(existsSync(`${path}.closed-cleanly`)).toBe(true);
  });
});

/** A stopped store whose items are in an `.ldb` file: LevelDB moves its log into one when it opens again. */
async function tableWithTableFile(path: string): Promise<void> {
  for (let i = 0; i < 2; i++) {
    const { store, client } = await started(path);
    await client.send(new PutCommand({ TableName: TABLE, Item: { pk: `U#${i}`, sk: 'U', id: String(i) } }));
    client.destroy();
    await closed(store);
  }
  expect(readdirSync(path).some((n) => n.endsWith('.ldb'))).toBe(true);
}
