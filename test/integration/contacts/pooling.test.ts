import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { getBalance } from '../../../lambdas/credits/credits';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { contactItemKey, dequeue, getContact } from '../../../lambdas/contacts/contact-repository';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../lambdas/platform/table';
import { newCustomer } from '../../support/customer';

const service = useTestService();

const setup = (credits: number) => newCustomer({ name: 'Pool', credits });

async function create(key: string, body: Record<string, unknown>, version = 2) {
  const res = await service.request('POST', `/api/v${version}/contacts`, { key, body });
  expect(res.status).toBe(201);
  return (await res.json()) as { id: string; credits_charged: number };
}

const get = async (key: string, id: string, version = 2) => (await (await service.request('GET', `/api/v${version}/contacts/${id}`, { key })).json()) as Record<string, unknown>;

describe('contact pooling through the upload pipeline', () => {
  it('pools queued contacts into api_pool uploads per tier and identity, then completes them', async () => {
    const { org, key } = await setup(100);
    const named = await create(key, { phone: '2125550143', properties: { first_name: 'Ada', last_name: 'Lovelace', crm: 1 } });
    const plain = await create(key, { phone: '4155550100', validation_tier: 'max' });
    const plain2 = await create(key, { phone: '4155550101', validation_tier: 'max' });
    expect([named.credits_charged, plain.credits_charged, plain2.credits_charged]).toEqual([1, 2, 1]);

    const run = await runContactPool(service.runtime.ports);
    expect(run.pooled).toBe(3);
    expect(run.uploads).toHaveLength(2);
    expect((await get(key, named.id)).status).toBe('processing');
    expect((await get(key, named.id)).message).toMatch(/Processing/);
    const pool = await getUpload(run.uploads[0]!);
    expect(pool?.source).toBe('api_pool');
    expect(pool?.credits_charged).toBe(0);
    // As the API shows it: the spec's UUID-or-null key id, and a user id that names no one.
    const listed = (await (await service.request('GET', `/api/v1/uploads/${run.uploads[0]}`, { key })).json()) as Record<string, unknown>;
    expect(listed).toMatchObject({ source: 'api_pool', api_key_id: null, user_id: '00000000-0000-0000-0000-000000000000', credits_required: 0, credits_charged: 0 });

    await service.runtime.settleWorkflows();
    const v2 = await get(key, named.id);
    expect(v2.status).toBe('completed');
    // 555-0143 is the simulator's Unknown Answer Intent with Low identity: Low replaces any Answer Intent.
    expect(v2).toMatchObject({ service_status: '8 - Likely Wrong Number', service_answer_intent: 'Unknown', service_identity: 'Low' });
    expect(v2.properties).toEqual({ first_name: 'Ada', last_name: 'Lovelace', crm: 1 });
    const v2plain = await get(key, plain.id);
    // Processed without identity: both v2-only fields are null and service_status holds the Answer Intent value.
    const v1plain = await get(key, plain.id, 1);
    expect(v2plain).toMatchObject({ status: 'completed', service_answer_intent: null, service_identity: null });
    expect(v2plain.service_status).toBe('Likely Answer'); // 555-0100: the simulator's Likely Answer
    expect(v1plain.service_status).toBe(v2plain.service_status);
    const v1 = await get(key, named.id, 1);
    expect(v1.service_status).toBe(v2.service_answer_intent);
    // Nothing more was charged by pooling.
    expect((await getBalance(org.id)).total).toBe(96);
    // The pool uploads announced nothing to the organization's endpoints; the contacts did.
    const types = (await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${org.id}#EVENTS` } }))).Items!.map((i) => String(i.type));
    expect(types.filter((t) => t.startsWith('upload.'))).toEqual([]);
    expect(types.filter((t) => t === 'contact.completed')).toHaveLength(3);
    expect((await runContactPool(service.runtime.ports)).pooled).toBe(0);

    // The max batch closed when pooled: the next max contact starts again at 2.
    expect((await create(key, { phone: '4155550102', validation_tier: 'max' })).credits_charged).toBe(2);
  });

  it('a run moves the max batch it closes, whole: a contact created while it reads the queue goes with its batch, one created after the close waits in the next', async () => {
    const { org, key } = await setup(100);
    const first = [];
    for (let i = 0; i < 3; i++) first.push(await create(key, { phone: `41555502${10 + i}`, validation_tier: 'max' }));
    expect(first.map((c) => c.credits_charged)).toEqual([2, 1, 2]);
    let inWindow: { id: string; credits_charged: number } | undefined;
    let afterClose: { id: string; credits_charged: number } | undefined;
    const run = await runContactPool(service.runtime.ports, {
      // Created after the run read the queue, before it closed the batch: place 4 of the batch it closes.
      afterRead: async () => void (inWindow = await create(key, { phone: '4155550220', validation_tier: 'max' })),
      // Created once the batch is closed: place 1 of the next one.
      afterClose: async () => void (afterClose = await create(key, { phone: '4155550221', validation_tier: 'max' })),
    });
    expect([inWindow!.credits_charged, afterClose!.credits_charged]).toEqual([1, 2]);
    // The closed batch, whole, in one pool upload: 4 contacts for ceil(4 × 1.5) = 6. (The run also
    // pools what earlier tests of this file left queued, for other organizations.)
    const pools = new Set((await Promise.all([...first, inWindow!].map((c) => getContact(c.id)))).map((c) => c?.pool_upload_id));
    expect(pools.size).toBe(1);
    expect(run.uploads).toContain([...pools][0]);
    expect((await getUpload([...pools][0]!))?.total_rows).toBe(4);
    for (const c of [...first, inWindow!]) expect((await get(key, c.id)).status).toBe('processing');
    expect((await get(key, afterClose!.id)).status).toBe('queued');
    // The next batch goes on from where its first contact left it: 2, then 1, 2 (not 2, 2).
    const next = [await create(key, { phone: '4155550222', validation_tier: 'max' }), await create(key, { phone: '4155550223', validation_tier: 'max' })];
    expect(next.map((c) => c.credits_charged)).toEqual([1, 2]);
    await runContactPool(service.runtime.ports);
    const nextPools = new Set((await Promise.all([afterClose!, ...next].map((c) => getContact(c.id)))).map((c) => c?.pool_upload_id));
    expect(nextPools.size).toBe(1);
    expect((await getUpload([...nextPools][0]!))?.total_rows).toBe(3);
    for (const c of [afterClose!, ...next]) expect((await get(key, c.id)).status).toBe('processing');
    // 2 + 1 + 2 + 1 and 2 + 1 + 2: every credit charged accounted for.
    expect((await getBalance(org.id)).total).toBe(100 - 6 - 5);
    await service.runtime.settleWorkflows();
  });

  it('a pool holding full names and first and last names judges identity on every one of them', async () => {
    const { key } = await setup(20);
    // The simulator's identity is the number's units digit (0 Very High, 1 High, 2 Medium) when a name is given.
    const bodies = [
      { phone: '3125550110', properties: { full_name: 'Ada Lovelace' } },
      { phone: '3125550111', properties: { first_name: 'Ada', last_name: 'van der Berg' } },
      { phone: '3125550112', properties: { firstName: 'Grace', lastName: 'Hopper' } },
      { phone: '3125550121', properties: { crm: 7 } },
    ];
    const ids = [];
    for (const body of bodies) ids.push((await create(key, body)).id);
    const run = await runContactPool(service.runtime.ports);
    // Named contacts are pooled apart from unnamed ones (identity is per upload); other tests' contacts may be pooled too.
    expect(run.pooled).toBeGreaterThanOrEqual(4);
    await service.runtime.settleWorkflows();
    const identities = [];
    for (const id of ids) identities.push((await get(key, id)).service_identity);
    // Before: a pool with any full name mapped only full names, and the first and last names came back Unknown.
    expect(identities).toEqual(['Very High', 'High', 'Medium', null]);
  });

  it('discards and refunds contacts that waited past the maximum queue time', () => service.clock.run(async () => {
    const { org, key } = await setup(10);
    const old = await create(key, { phone: '3125550101' });
    const start = Date.now();
    service.clock.set(() => start + 8 * 86_400_000);
    try {
      const run = await runContactPool(service.runtime.ports);
      expect(run.discarded).toBeGreaterThanOrEqual(1);
    } finally {
      service.clock.set(null);
    }
    expect(await get(key, old.id)).toMatchObject({ status: 'discarded', message: null });
    expect((await getBalance(org.id)).total).toBe(10);
  }));

  it('a contact becomes queued and enters the queue in one write; entries of the earlier layout are still pooled and removed; dequeuing never takes an outbox entry', async () => {
    const { key } = await setup(10);
    const raw = async (id: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: contactItemKey(id), ConsistentRead: true }))).Item!;
    const current = await create(key, { phone: '3125550111' });
    const item = await raw(current.id);
    expect(item.status).toBe('queued');
    expect(String(item.gsi3pk)).toMatch(/^CONTACTQ#[0-7]$/);
    expect(item.gsi3sk).toBe(`${String(item.created_at)}#${current.id}`);

    // A contact queued by the earlier layout: no index attributes, an entry item of its own.
    const earlier = await create(key, { phone: '3125550112' });
    const earlierItem = await raw(earlier.id);
    const legacyKey = { pk: String(earlierItem.gsi3pk), sk: String(earlierItem.gsi3sk) };
    await db().send(new UpdateCommand({ TableName: tableName(), Key: contactItemKey(earlier.id), UpdateExpression: 'REMOVE gsi3pk, gsi3sk' }));
    await db().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...legacyKey, contact_id: earlier.id, organization_id: earlierItem.organization_id, created_at: earlierItem.created_at, entity: 'ContactQueueEntry', version: 1 },
      }),
    );

    await runContactPool(service.runtime.ports);
    for (const id of [current.id, earlier.id]) {
      expect((await get(key, id)).status).not.toBe('queued');
      expect((await raw(id)).gsi3pk === undefined || (await raw(id)).gsi3pk === 'OUTBOX').toBe(true);
    }
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: legacyKey, ConsistentRead: true }))).Item).toBeUndefined();

    // A stale queue entry of a contact whose gsi3 now holds its outbox entry: the outbox entry stays.
    const outboxed = await create(key, { phone: '3125550113' });
    const queuedItem = await raw(outboxed.id);
    await db().send(new UpdateCommand({ TableName: tableName(), Key: contactItemKey(outboxed.id), UpdateExpression: 'SET gsi3pk = :pk', ExpressionAttributeValues: { ':pk': 'OUTBOX' } }));
    await dequeue({ contact_id: outboxed.id, shard: String(queuedItem.gsi3pk), sk: String(queuedItem.gsi3sk), legacy: false });
    expect((await raw(outboxed.id)).gsi3pk).toBe('OUTBOX');
  });
});
