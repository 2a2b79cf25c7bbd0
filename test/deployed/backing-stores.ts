import { rmSync } from 'node:fs';
import { DeleteTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ensureTable, startEmbeddedDynamo } from '../../local/embedded-dynamodb';
import { ensureBuckets, startEmbeddedS3 } from '../../local/embedded-s3';
import type { SigningSecret } from '../../local/sigv4';
import { REGION } from './assembly';
import { waitFor } from '../support/wait';
import { tempDir } from '../support/temp-dirs';

// Where the deployed walk keeps its table and files. By default the embedded stores (dynalite and
// the embedded S3 gateway, on loopback); with AWS_ENDPOINT_URL set (LocalStack,
// `http://localhost:4566`), that endpoint's DynamoDB and S3. The functions still talk to the
// recording endpoint (aws-endpoint.ts), which forwards DynamoDB and S3 there unchanged and plays
// SQS, Step Functions, Secrets Manager and KMS itself: the test drives the queues and the workflow.

export interface BackingStores {
  /** `embedded`, or the external endpoint's URL. */
  kind: 'embedded' | 'external';
  dynamo: string;
  s3: string;
  close(): Promise<void>;
}

/**
 * The external endpoint AWS_ENDPOINT_URL names, or null: an http(s) origin (no path, no
 * credentials in it). Anything else is refused with the variable's name, not taken as a hint.
 */
export function externalEndpoint(value: string | undefined): string | null {
  if (value === undefined || value.trim() === '') return null;
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new Error(`AWS_ENDPOINT_URL is not a URL: ${JSON.stringify(value)} (e.g. http://localhost:4566 for LocalStack)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`AWS_ENDPOINT_URL must be http or https, not ${url.protocol}`);
  if (url.username || url.password) throw new Error('AWS_ENDPOINT_URL must not carry credentials');
  if (url.pathname !== '/' || url.search || url.hash) throw new Error(`AWS_ENDPOINT_URL must be an origin (scheme, host, port), not ${JSON.stringify(value)}`);
  return url.origin;
}

/**
 * Starts (or connects to) the stores, with the template's table (created empty: on an external
 * endpoint a table left by an earlier walk is deleted first) and buckets.
 */
export async function startBackingStores(options: { tableName: string; buckets: string[]; secret: SigningSecret; external: string | null }): Promise<BackingStores> {
  if (options.external) {
    try {
      await deleteTable(options.external, options.tableName);
      await ensureTable(options.external, options.tableName);
      await ensureBuckets(options.external, options.buckets);
    } catch (error) {
      throw new Error(`AWS_ENDPOINT_URL=${options.external}: its DynamoDB and S3 did not answer (${(error as Error).message}); start LocalStack there (docs/deploy.md, "The deployed walk on LocalStack") or unset it`, { cause: error });
    }
    return { kind: 'external', dynamo: options.external, s3: options.external, close: async () => {} };
  }
  const dynamo = await startEmbeddedDynamo(null);
  const s3Dir = tempDir('deployed-s3-');
  const s3 = await startEmbeddedS3(s3Dir, { secret: options.secret });
  await ensureTable(dynamo.endpoint, options.tableName);
  await ensureBuckets(s3.endpoint, options.buckets);
  return {
    kind: 'embedded',
    dynamo: dynamo.endpoint,
    s3: s3.endpoint,
    async close() {
      await s3.close();
      await dynamo.close();
      rmSync(s3Dir, { recursive: true, force: true });
    },
  };
}

/** Deletes `tableName` if it exists and answers once it is gone. */
async function deleteTable(endpoint: string, tableName: string): Promise<void> {
  const client = new DynamoDBClient({ endpoint, region: REGION });
  const gone = (error: unknown) => (error as Error).name === 'ResourceNotFoundException';
  try {
    await client.send(new DeleteTableCommand({ TableName: tableName }));
  } catch (error) {
    if (!gone(error)) throw error;
  }
  await waitFor(`table ${tableName} gone from ${endpoint} after DeleteTable`, async () => {
    try {
      await client.send(new DescribeTableCommand({ TableName: tableName }));
      return null;
    } catch (error) {
      if (gone(error)) return true;
      throw error;
    }
  }, 60_000);
  client.destroy();
}
