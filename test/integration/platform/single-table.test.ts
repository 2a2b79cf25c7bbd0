import { describe, expect, it } from 'vitest';
import { PutCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../../support/runtime';
import { uploadRecord } from '../../support/upload-record';
import { newCustomer } from '../../support/customer';
import { addVerified } from '../spam/helpers';
import * as admin from '../../../lambdas/admin/admin';
import { db, tableName, updateReturning, type Item } from '../../../lambdas/platform/table';
import { ENTITIES, indexPatterns, type EntityDefinition, type EntityName } from '../../../lambdas/platform/table-entities';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { getLedgerEntry } from '../../../lambdas/credits/balance-repository';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { startReceiver } from '../webhooks/receiver';
import { waitFor } from '../../support/wait';

// The single-table layer against the embedded table: what every write leaves in an item, and how
// items of older and newer schema versions read.

// The flow below registers a webhook and a contact callback on a loopback receiver (local only).
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();

const numbers = (n: number, from = 2000) => Array.from({ length: n }, (_, i) => `(312) 555-${String(from + i).padStart(4, '0')}`);

async function allItems(): Promise<Item[]> {
  const items: Item[] = [];
  let start: Item | undefined;
  do {
    const out = await db().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: start }));
    items.push(...(out.Items ?? []));
    start = out.LastEvaluatedKey;
  } while (start);
  return items;
}

/** `ORG#<org>#KEYS` → /^ORG#[^#]+#KEYS$/ (a `<value>` may hold '#' only where the pattern is all value). */
const patternRegex = (pattern: string) => new RegExp(`^${pattern.split(/<[^>]+>/).map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.+')}$`);

// A record as an older version wrote it: no entity or version stamp (the `extra` add or spoil fields).
const upload = (id: string, extra: Item = {}): Item => ({ pk: `UPLOAD#${id}`, sk: 'META', ...uploadRecord({ id, original_filename: 'legacy.csv' }), ...extra });

describe('the single table', () => {
  it('every item the service writes says which entity it is, with its schema version, under its key pattern', async () => {
    const { org, key } = await newCustomer({ name: 'Stamps', credits: 1000, subscriptionActive: true });
    await admin.setSpamLimit(org.id, 5, 0);
    const receiver = await startReceiver();
    try {
      const endpoint = await service.request('POST', '/api/v1/webhooks', { body: { url: receiver.url, events: ['upload.completed'] }, key });
      expect(endpoint.status).toBe(201);
      const contact = await service.request('POST', '/api/v2/contacts', { body: { phone: '+12125550143', validation_tier: 'max', idempotency_key: 'stamp-1', callback_url: receiver.url, callback_secret: 'stamp-callback-secret-0123' }, key });
      expect(contact.status).toBe(201);
      const created = await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: numbers(100) }, key });
      expect(created.status).toBe(200);
      await addVerified(service, key, '+12125550199');
      await runContactPool(service.runtime.ports);
      // Both kinds of delivery exist once the pool's contact has its callback and the upload its event.
      await waitFor('a webhook delivery and a contact callback delivery', async () => {
        const logs = (await allItems()).filter((i) => i.entity === 'WebhookDelivery').map((i) => String(i.gsi1pk));
        return logs.some((pk) => pk.endsWith('#DELIVERIES')) && logs.some((pk) => pk.endsWith('#CALLBACKS')) ? true : null;
      });
    } finally {
      await receiver.close();
    }

    const items = await allItems();
    const seen = new Set<string>();
    for (const item of items) {
      const where = `${String(item.pk)} / ${String(item.sk)}`;
      expect(Object.keys(ENTITIES), `${where} entity`).toContain(item.entity);
      const entity = item.entity as EntityName;
      const definition: EntityDefinition = ENTITIES[entity];
      expect(item.version, `${where} version`).toBe(definition.version);
      expect(String(item.pk), `${where} pk`).toMatch(patternRegex(definition.pk));
      expect(String(item.sk), `${where} sk`).toMatch(patternRegex(definition.sk));
      for (const [index, patterns] of Object.entries(definition.indexes ?? {})) {
        const value = item[`${index}pk`];
        if (value !== undefined) expect(indexPatterns(patterns).some((keys) => patternRegex(keys.pk).test(String(value))), `${where} ${index}pk ${String(value)}`).toBe(true);
      }
      seen.add(entity);
    }
    // The flow above touched these kinds at least (so the loop above checked something real).
    for (const entity of ['Organization', 'User', 'Membership', 'ApiKey', 'Balance', 'LedgerEntry', 'Contact', 'IdempotencyKey', 'RateBucket', 'Upload', 'MonitoredNumber', 'SpamPhoneGuard', 'SpamNumberCount', 'Event', 'LocalSeed', 'WebhookEndpoint', 'WebhookDelivery']) {
      expect(seen, entity).toContain(entity);
    }
  });

  it('a conditional update answers with the item as it left it, or null when its condition failed', async () => {
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: 'T#1', sk: 'META', n: 1, status: 'a' } }));
    const moved = await updateReturning({ Key: { pk: 'T#1', sk: 'META' }, UpdateExpression: 'SET #s = :to ADD n :one', ConditionExpression: '#s = :from', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':to': 'b', ':from': 'a', ':one': 1 } });
    expect(moved).toEqual({ pk: 'T#1', sk: 'META', n: 2, status: 'b' });
    const lost = await updateReturning({ Key: { pk: 'T#1', sk: 'META' }, UpdateExpression: 'SET #s = :to', ConditionExpression: '#s = :from', ExpressionAttributeNames: { '#s': 'status' }, ExpressionAttributeValues: { ':to': 'c', ':from': 'a' } });
    expect(lost).toBeNull();
    await expect(updateReturning({ Key: { pk: 'T#1' }, UpdateExpression: 'SET x = :x', ExpressionAttributeValues: { ':x': 1 } })).rejects.toThrow();
  });

  it('reads an item written before versions existed as version 1, with attributes the schema does not name kept', async () => {
    await db().send(new PutCommand({ TableName: tableName(), Item: upload('legacy-1', { legacy_note: 'kept' }) }));
    const record = await getUpload('legacy-1');
    expect(record).toMatchObject({ id: 'legacy-1', status: 'completed', legacy_note: 'kept' });
    expect(record).not.toHaveProperty('pk');
    expect(record).not.toHaveProperty('version');
  });

  it('refuses to serve an item that does not match its schema, is of a newer version, or is another entity', async () => {
    await db().send(new PutCommand({ TableName: tableName(), Item: upload('bad-status', { entity: 'Upload', version: 1, status: 'exploded' }) }));
    await expect(getUpload('bad-status')).rejects.toThrow(/Upload item UPLOAD#bad-status \/ META: status/);
    await db().send(new PutCommand({ TableName: tableName(), Item: upload('missing', { credits_charged: undefined, total_rows: '100' }) }));
    await expect(getUpload('missing')).rejects.toThrow(/total_rows/);
    await db().send(new PutCommand({ TableName: tableName(), Item: upload('future', { entity: 'Upload', version: ENTITIES.Upload.version + 1 }) }));
    await expect(getUpload('future')).rejects.toThrow(/newer than this code reads/);
    await db().send(new PutCommand({ TableName: tableName(), Item: { pk: 'ORG#o', sk: 'LEDGER#c', entity: 'Balance', version: 1 } }));
    await expect(getLedgerEntry('o', 'c')).rejects.toThrow(/holds a Balance/);
  });
});
