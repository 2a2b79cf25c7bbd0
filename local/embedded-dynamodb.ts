import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { createTableInput } from '../lambdas/platform/table-definition';

const require = createRequire(import.meta.url);
const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/** dynalite on loopback; persisted under `dir` (LevelDB) or in memory when `dir` is null. */
export async function startEmbeddedDynamo(dir: string | null, port = 0): Promise<EmbeddedDynamo> {
  if (dir) mkdirSync(dir, { recursive: true });
  const server = dynalite({ path: dir ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Creates the table from the shared definition unless it exists (any DynamoDB-compatible endpoint). */
export async function ensureTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException) && (error as Error).name !== 'ResourceNotFoundException') throw error;
    await client.send(new CreateTableCommand(createTableInput(tableName)));
  } finally {
    client.destroy();
  }
}
