import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from './table';
import { filesBucket, s3, s3GetSdk } from './blob';
import type { DependencyCheck } from './ready-probe';

/** A key nothing stores: reading it proves the table answers, whatever it holds. */
const PROBE_KEY = { pk: 'READY#probe', sk: 'META' };
/** An object nothing writes, under the one prefix the platform function may read. */
export const FILE_STORE_PROBE_PREFIX = 'health/';

/** The table and the file store, asked as the API's functions reach them. */
export function dependencyChecks(): DependencyCheck[] {
  return [
    {
      name: 'table',
      ask: async (signal) => {
        await db().send(new GetCommand({ TableName: tableName(), Key: PROBE_KEY }), { abortSignal: signal });
      },
    },
    {
      name: 'file_store',
      ask: async (signal) => {
        try {
          const [client, { GetObjectCommand }] = await Promise.all([s3(), s3GetSdk()]);
          const out = await client.send(new GetObjectCommand({ Bucket: filesBucket(), Key: `${FILE_STORE_PROBE_PREFIX}probe` }), { abortSignal: signal });
          // Nothing writes it; should someone, its body is not needed.
          (out.Body as { destroy?: () => void } | undefined)?.destroy?.();
        } catch (error) {
          // The store answered "no such key": it is up and the bucket exists. A GET, not a HEAD:
          // a HEAD's 404 has no body, so a missing bucket would read the same as a missing key;
          // here it is NoSuchBucket, and a refused role AccessDenied: both fail.
          if ((error as Error).name === 'NoSuchKey') return;
          throw error;
        }
      },
    },
  ];
}
