import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { BatchGetCommand, BatchWriteCommand, DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { reloadConfig } from '../../../lambdas/platform/config';
import { dynamoLookupCache, lookupIdentityKey, lookupSignalsKey } from '../../../lambdas/classification/lookup-cache-repository';
import type { IdentityRef } from '../../../lambdas/classification/lookup-cache-store';

// The lookup cache's DynamoDB adapter with the client stubbed: the batch sizes DynamoDB accepts
// (100 keys a BatchGetItem, 25 puts a BatchWriteItem), unprocessed keys retried, and what it does
// when DynamoDB keeps refusing or an item is not what it should be. The embedded table covers the
// rest (test/integration/uploads/lookup-cache.test.ts).

const ddb = mockClient(DynamoDBDocumentClient);
const TABLE = 'lookup-cache-unit';
beforeAll(() => {
  process.env.TABLE_NAME = TABLE;
  reloadConfig();
});
beforeEach(() => ddb.reset());
afterAll(() => ddb.restore());

const e164s = (n: number) => Array.from({ length: n }, (_, i) => `+1312555${String(2000 + i).padStart(4, '0')}`);
const signalsItem = (e164: string) => ({ ...lookupSignalsKey(e164, 'twilio'), entity: 'LookupSignals', version: 1, e164, provider: 'twilio', line: { line_type: 'mobile', carrier: 'Verizon Wireless', call_screening: null, at: 1 }, ttl: 99 });
const noSleep = async () => {};

type Key = { pk: string; sk: string };
const keysOf = (input: unknown) => (input as { RequestItems: Record<string, { Keys: Key[] }> }).RequestItems[TABLE]!.Keys;

describe('lookup cache in DynamoDB', () => {
  it('reads in batches of at most 100 keys, each key once, retrying unprocessed keys', async () => {
    let first = true;
    ddb.on(BatchGetCommand).callsFake((input: unknown) => {
      const keys = keysOf(input);
      // The first call leaves three keys unprocessed, as DynamoDB does under load.
      const unprocessed = first ? keys.slice(0, 3) : [];
      first = false;
      const served = keys.filter((k) => !unprocessed.includes(k) && k.sk.startsWith('SIGNALS#'));
      return { Responses: { [TABLE]: served.map((k) => signalsItem(k.pk.slice('LOOKUP#'.length))) }, UnprocessedKeys: unprocessed.length ? { [TABLE]: { Keys: unprocessed } } : {} };
    });
    const numbers = e164s(150);
    const refs: IdentityRef[] = numbers.slice(0, 10).map((e164) => ({ e164, scope: 'org:o', nameHash: 'ab'.repeat(32) }));
    const read = await dynamoLookupCache({ sleep: noSleep }).read('twilio', { numbers: [...numbers, ...numbers.slice(0, 5)], identities: refs });
    const calls = ddb.commandCalls(BatchGetCommand).map((c) => keysOf(c.args[0].input));
    expect(calls.map((k) => k.length)).toEqual([100, 3, 60]);
    const asked = calls.flat().map((k) => `${k.pk}|${k.sk}`);
    expect(new Set(asked).size).toBe(160);
    expect(asked).toContain(`${lookupIdentityKey(refs[0]!, 'twilio').pk}|${lookupIdentityKey(refs[0]!, 'twilio').sk}`);
    expect(read.numbers.size).toBe(150);
    expect(read.numbers.get(numbers[0]!)).toEqual({ line: { lineType: 'mobile', carrier: 'Verizon Wireless', callScreening: null, activityScore: null, ported: null, at: 1 } });
    expect(read.identities.size).toBe(0);
  });

  it('keys DynamoDB still will not serve after the retries are misses, and an item off its schema is one too', async () => {
    ddb.on(BatchGetCommand).callsFake((input: unknown) => {
      const keys = keysOf(input);
      // The first number is served, off its schema; the second never.
      const first = e164s(1)[0]!;
      const broken = { ...signalsItem(first), line: { line_type: 'rotary', at: 'yesterday' } };
      const served = keys.some((k) => k.pk === `LOOKUP#${first}`);
      return { Responses: { [TABLE]: served ? [broken] : [] }, UnprocessedKeys: { [TABLE]: { Keys: keys.filter((k) => k.pk !== `LOOKUP#${first}`) } } };
    });
    const read = await dynamoLookupCache({ sleep: noSleep }).read('twilio', { numbers: e164s(2), identities: [] });
    expect(read.numbers.size).toBe(0);
    expect(ddb.commandCalls(BatchGetCommand)).toHaveLength(5);
  });

  it('writes in batches of at most 25 puts, each key once, stamped with its entity and the TTL attribute, retrying unprocessed items', async () => {
    let first = true;
    ddb.on(BatchWriteCommand).callsFake((input: unknown) => {
      const puts = (input as { RequestItems: Record<string, unknown[]> }).RequestItems[TABLE]!;
      const unprocessed = first ? puts.slice(0, 2) : [];
      first = false;
      return { UnprocessedItems: unprocessed.length ? { [TABLE]: unprocessed } : {} };
    });
    const numbers = e164s(30);
    const line = { lineType: 'mobile' as const, carrier: null, callScreening: null, activityScore: null, ported: null, at: 5 };
    await dynamoLookupCache({ sleep: noSleep }).write('twilio', {
      numbers: [...numbers, numbers[0]!].map((e164) => ({ e164, entry: { line }, expiresAt: 1234 })),
      identities: [{ ref: { e164: numbers[0]!, scope: 'shared', nameHash: 'cd'.repeat(32) }, answer: { nameMatchScore: 90, nameMatch: null, callerName: null, at: 5 }, expiresAt: 4321 }],
    });
    const calls = ddb.commandCalls(BatchWriteCommand).map((c) => (c.args[0].input as { RequestItems: Record<string, { PutRequest: { Item: Record<string, unknown> } }[]> }).RequestItems[TABLE]!);
    expect(calls.map((c) => c.length)).toEqual([25, 2, 6]);
    const items = [calls[0]!, calls[2]!].flat().map((p) => p.PutRequest.Item);
    expect(new Set(items.map((i) => `${String(i.pk)}|${String(i.sk)}`)).size).toBe(31);
    expect(items[0]).toEqual({ pk: `LOOKUP#${numbers[0]}`, sk: 'SIGNALS#twilio', entity: 'LookupSignals', version: 1, e164: numbers[0], provider: 'twilio', line: { line_type: 'mobile', carrier: null, call_screening: null, activity_score: null, ported: null, at: 5 }, ttl: 1234 });
    expect(items.at(-1)).toEqual({ pk: `LOOKUP#${numbers[0]}`, sk: `IDENTITY#twilio#shared#${'cd'.repeat(32)}`, entity: 'LookupIdentity', version: 1, e164: numbers[0], provider: 'twilio', scope: 'shared', name_match_score: 90, name_match: null, caller_name: null, at: 5, ttl: 4321 });
  });
});
