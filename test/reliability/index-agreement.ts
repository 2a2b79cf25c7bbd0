import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, ScanCommand, type ScanCommandInput } from '@aws-sdk/lib-dynamodb';
import { TABLE_KEYS } from '../../lambdas/platform/table-definition';

// Index/item agreement of a running table, read through its API: every item with an index's keys
// has exactly one entry in that index, equal to the item (projection ALL), and no index holds an
// entry its item does not. A running service writes between the scans, so callers wait for a
// reading with none (waitFor): a disagreement that lasts is one a restart did not repair.

type Row = Record<string, unknown>;

/** JSON with keys sorted at every depth, so equal items give equal text. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) && !(v instanceof Set) ? Object.fromEntries(Object.entries(v as Row).sort(([a], [b]) => a.localeCompare(b))) : v instanceof Set ? [...v].sort() : v,
  );

async function scanAll(client: DynamoDBDocumentClient, input: ScanCommandInput): Promise<Row[]> {
  const rows: Row[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const out = await client.send(new ScanCommand({ ...input, ConsistentRead: input.IndexName ? undefined : true, ExclusiveStartKey: start }));
    rows.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return rows;
}

/** Descriptions of every index entry that disagrees with the items (empty when they agree). */
export async function indexMismatches(endpoint: string, credentials: { accessKeyId: string; secretAccessKey: string }, tableName = 'phone-validation'): Promise<string[]> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint, region: 'us-east-1', credentials }));
  try {
    const items = await scanAll(client, { TableName: tableName });
    const mismatches: string[] = [];
    for (const index of TABLE_KEYS.indexes) {
      const expected = new Map<string, string>();
      for (const item of items) if (item[index.partitionKey] !== undefined && item[index.sortKey] !== undefined) expected.set(`${String(item.pk)} ${String(item.sk)}`, canonical(item));
      const seen = new Set<string>();
      for (const entry of await scanAll(client, { TableName: tableName, IndexName: index.name })) {
        const key = `${String(entry.pk)} ${String(entry.sk)}`;
        if (seen.has(key)) mismatches.push(`${index.name}: ${key} listed twice`);
        else if (!expected.has(key)) mismatches.push(`${index.name}: ${key} listed, its item has no such entry`);
        else if (expected.get(key) !== canonical(entry)) mismatches.push(`${index.name}: ${key} listed as a state its item is not in`);
        seen.add(key);
      }
      for (const key of expected.keys()) if (!seen.has(key)) mismatches.push(`${index.name}: ${key} missing`);
    }
    return mismatches;
  } finally {
    client.destroy();
  }
}
