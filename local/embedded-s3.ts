import { createRequire } from 'node:module';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { CreateBucketCommand, HeadBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { repairFileStore } from './file-store-repair';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<AddressInfo>; close(): Promise<void> };

export interface EmbeddedS3 {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * s3rver on loopback, objects stored as files under `dir`. Puts a kill -9 interrupted are removed
 * first (local/file-store-repair.ts), so a crash never stops the next start.
 */
export async function startEmbeddedS3(dir: string, port = 0): Promise<EmbeddedS3> {
  mkdirSync(dir, { recursive: true });
  const { removed } = repairFileStore(dir);
  if (removed.length) {
    console.warn(`embedded S3: removed ${removed.length} object(s) an interrupted write left incomplete: ${removed.slice(0, 10).join(', ')}${removed.length > 10 ? ', …' : ''}`);
  }
  const s3 = new S3rver({ address: '127.0.0.1', port, directory: dir, silent: true, vhostBuckets: false });
  const address = await s3.run();
  const endpoint = `http://127.0.0.1:${address.port}`;
  return { endpoint, close: () => s3.close() };
}

export async function ensureBuckets(endpoint: string, buckets: string[]): Promise<void> {
  const client = new S3Client({ endpoint, forcePathStyle: true, region: process.env.AWS_REGION ?? 'us-east-1' });
  try {
    for (const bucket of buckets) {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
        continue;
      } catch (error) {
        const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
        if (status !== 404) throw new Error(`Cannot check bucket ${bucket} at ${endpoint}: ${(error as Error).name} (HTTP ${status ?? 'no response'})`, { cause: error });
      }
      try {
        await client.send(new CreateBucketCommand({ Bucket: bucket }));
      } catch (error) {
        // Created meanwhile (another start, or a store that reports existing buckets this way): fine.
        if (!['BucketAlreadyExists', 'BucketAlreadyOwnedByYou'].includes((error as Error).name)) throw error;
      }
    }
  } finally {
    client.destroy();
  }
}
