import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { hundredNumbers } from '../support/phone-inputs';
import { crashThenRestart, waitFor, type Child } from './harness';
import { indexMismatches } from './index-agreement';
import { scaled } from '../support/wait';

// kill -9 inside one storage write: dynalite has written the item's index entries and not the item
// (storage.between-index-and-item:<entity>:<status>, local/embedded-dynamodb.ts). The restart
// rebuilds the indexes from the items before it answers (local/embedded-dynamodb-integrity.ts) and
// recovery, which re-reads every item it finds through an index, finishes the work: no index entry
// disagrees with its item, nothing is left owed, and credits are conserved exactly.

const CHILD_TEST_MS = scaled(300_000);
const children: Child[] = [];
afterEach(async () => {
  while (children.length) await children.pop()!.stop();
});

/** Items still listed as owing work: uploads watched for recovery, contacts left creating, contact creates (their claims) in progress. */
async function owed(c: Child): Promise<number> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: c.dynamo, region: 'us-east-1', credentials: c.credentials }));
  try {
    let count = 0;
    for (const [index, pk] of [['gsi2', 'UPLOAD#WATCH'], ['gsi3', 'RECOVER#Contact'], ['gsi3', 'RECOVER#ContactCreate']] as const) {
      const out = await client.send(new QueryCommand({ TableName: 'phone-validation', IndexName: index, KeyConditionExpression: `${index}pk = :pk`, ExpressionAttributeValues: { ':pk': pk }, ConsistentRead: false }));
      count += out.Items?.length ?? 0;
    }
    return count;
  } finally {
    client.destroy();
  }
}

const balance = async (c: Child): Promise<number> => ((await (await c.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;

async function assertConsistent(c: Child): Promise<void> {
  expect(await waitFor('indexes agreeing with their items', async () => ((await indexMismatches(c.dynamo, c.credentials)).length === 0 ? true : null))).toBe(true);
  expect(await waitFor('nothing left owed', async () => ((await owed(c)) === 0 ? true : null))).toBe(true);
}

describe('kill -9 inside a storage write (between an index write and its item write)', () => {
  for (const status of ['charging', 'ready_for_processing', 'processing', 'completed']) {
    const point = `storage.between-index-and-item:Upload:${status}`;
    it(`killed at ${point}: the upload ends completed and charged once, indexes agree, nothing owed`, async () => {
      const c = await crashThenRestart(point, (child) => child.request('POST', '/api/v1/uploads', { phone_numbers: hundredNumbers() }), children);
      const uploads = await waitFor('every upload terminal', async () => {
        const page = (await (await c.request('GET', '/api/v1/uploads')).json()) as { data: { status: string; credits_charged: number; credits_refunded: number | null }[] };
        return page.data.every((u) => u.status === 'completed' || u.status === 'failed') ? page.data : null;
      });
      // Killed while the upload was invisible (charging), it is removed with nothing charged, or completes.
      expect(uploads.length).toBeLessThanOrEqual(1);
      const spent = uploads.reduce((sum, u) => sum + u.credits_charged - (u.credits_refunded ?? 0), 0);
      if (status !== 'charging') expect(uploads[0]).toMatchObject({ status: 'completed', credits_charged: 100 });
      expect(await balance(c)).toBe(1000 - spent);
      await assertConsistent(c);
    }, CHILD_TEST_MS);
  }

  // A max create in progress is its claim (`creating`, holding the contact; implicit without an idempotency key) until the contact is written queued.
  for (const point of ['IdempotencyKey:creating', 'Contact:queued', 'Contact:completed'].map((s) => `storage.between-index-and-item:${s}`)) {
    const status = point.endsWith(':creating') ? 'creating' : 'written';
    it(`killed at ${point}: the contact is charged once and ends, indexes agree, nothing owed`, async () => {
      const c = await crashThenRestart(point, (child) => child.request('POST', '/api/v2/contacts', { phone: '+12125550123', validation_tier: 'max' }), children);
      const contacts = await waitFor('every contact terminal', async () => {
        const page = (await (await c.request('GET', '/api/v2/contacts')).json()) as { data: { status: string; credits_charged: number }[] };
        return page.data.every((x) => x.status === 'completed' || x.status === 'failed') ? page.data : null;
      });
      expect(contacts.length).toBeLessThanOrEqual(1);
      if (status !== 'creating') expect(contacts[0]).toMatchObject({ status: 'completed', credits_charged: 2 });
      expect(await balance(c)).toBe(1000 - contacts.reduce((sum, x) => sum + (x.status === 'completed' ? x.credits_charged : 0), 0));
      await assertConsistent(c);
    }, CHILD_TEST_MS);
  }
});
