import { describe, expect, it } from 'vitest';
import { GetCommand, PutCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../support/runtime';
import * as admin from '../../lambdas/admin/admin';
import { debit, getBalance } from '../../lambdas/credits/credits';
import { applyPoolDelta } from '../../lambdas/credits/balance-repository';
import { db, tableName } from '../../lambdas/platform/table';
import { filesBucket, putObject } from '../../lambdas/platform/blob';
import { drainOutbox, outboxFields } from '../../lambdas/webhooks/outbox';
import { API_VERSION, type EventEnvelope } from '../../lambdas/webhooks/events';
import { createUpload } from '../../lambdas/uploads/create-upload';
import { recoverUploads } from '../../lambdas/uploads/reconcile';
import { keys, type UploadRecord } from '../../lambdas/uploads/upload';
import { getUpload, insertUpload } from '../../lambdas/uploads/upload-repository';
import { recoverCreatingContacts } from '../../lambdas/contacts/create-contact';
import { chargeBeforeWrite, ledgerEntryOf } from '../../lambdas/credits/charge-before-write';
import { putItems } from '../../lambdas/platform/table';
import { claimIdempotencyKey } from '../../lambdas/contacts/idempotency-repository';
import { getBalanceItem } from '../../lambdas/credits/balance-repository';
import { contactItemKey, getContact, insertContact, transitionContact } from '../../lambdas/contacts/contact-repository';
import type { ContactRecord } from '../../lambdas/contacts/contact';
import { runContactPool } from '../../lambdas/contacts/pool-job';
import { releaseLeasesTakenBefore } from '../../lambdas/platform/lease';
import { recoverAfterRestart } from '../../lambdas/recovery/recovery-job';
import { newCustomer } from '../support/customer';

// The intermediate states a crash between two writes leaves, written directly, each driven to a
// terminal state by recovery with credits conserved (docs/reliability.md).

const service = useTestService();
const PAST = '2026-01-01T00:00:00.000Z';
const csv = Buffer.from(['phone', ...Array.from({ length: 100 }, (_, i) => `212-555-${2000 + i}`)].join('\n'));

async function eventsOf(orgId: string): Promise<{ id: string; type: string }[]> {
  const out = await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${orgId}#EVENTS` } }));
  return (out.Items ?? []).map((i) => ({ id: String(i.id), type: String(i.type) }));
}

async function uploadIn(status: UploadRecord['status'] | 'charging', orgId: string, id: string): Promise<UploadRecord> {
  const made = await createUpload(service.runtime.ports, { organizationId: orgId, userId: service.userId, apiKeyId: 'k' }, { csv, filename: 'a.csv', mapping: { phoneColumns: ['phone'] }, tier: 'standard', skipMobileLookup: false, source: 'api' });
  await service.runtime.settleWorkflows();
  const record = { ...(await getUpload(made.id))!, id, status, result_summary: null, processed_available: false, credits_charged: status === 'charging' ? null : 100, created_at: PAST, updated_at: PAST } as UploadRecord;
  await putObject(filesBucket(), keys.original(record), csv, 'text/csv');
  await insertUpload(record, PAST); // watched, stale since PAST
  return record;
}

describe('upload crash states', () => {
  it('charging with the debit applied but not in the ledger: resumed and completed, charged once', async () => {
    const org = await admin.createOrganization({ name: 'Inflight', credits: 1000 });
    const upload = await uploadIn('charging', org.id, '55555555-5555-4555-8555-555555555555');
    expect(await applyPoolDelta(org.id, `upload:${upload.id}`, { subscription: 0, purchased: -100 }, { kind: 'none' }, PAST)).toBe(true);
    const before = await getBalance(org.id);
    expect(await recoverUploads(service.runtime.ports)).toMatchObject({ resumed: 1, removed: 0 });
    await service.runtime.settleWorkflows();
    expect(await getUpload(upload.id)).toMatchObject({ status: 'completed', credits_charged: 100 });
    expect(await getBalance(org.id)).toEqual(before);
    expect((await eventsOf(org.id)).filter((e) => e.type === 'upload.created')).toHaveLength(2);
  });

  it('ready_for_processing with no execution: started again and completed', async () => {
    const org = await admin.createOrganization({ name: 'Ready', credits: 1000 });
    const upload = await uploadIn('ready_for_processing', org.id, '66666666-6666-4666-8666-666666666666');
    await debit(org.id, `upload:${upload.id}`, 100, { reason: 'test', resourceId: upload.id });
    // Changed an hour ago at most: restarted, not given up.
    const recent = { ...upload, updated_at: new Date(Date.now() - 10 * 60_000).toISOString() };
    const fresh = { ...recent, id: '66666666-6666-4666-8666-666666666667' };
    await putObject(filesBucket(), keys.original(fresh), csv, 'text/csv');
    await insertUpload(fresh, PAST);
    await debit(org.id, `upload:${fresh.id}`, 100, { reason: 'test', resourceId: fresh.id });
    expect(await recoverUploads(service.runtime.ports)).toMatchObject({ restarted: 1, failed: 1 });
    await service.runtime.settleWorkflows();
    expect(await getUpload('66666666-6666-4666-8666-666666666667')).toMatchObject({ status: 'completed' });
    // The one left ready for over an hour was failed and refunded, with its event.
    expect(await getUpload(upload.id)).toMatchObject({ status: 'failed', credits_refunded: 100 });
    expect((await eventsOf(org.id)).map((e) => e.type)).toContain('upload.failed');
  });

  it('processing past its bound: failed, refunded once, announced', async () => {
    const org = await admin.createOrganization({ name: 'Stalled', credits: 1000 });
    const upload = await uploadIn('processing', org.id, '77777777-7777-4777-8777-777777777777');
    await debit(org.id, `upload:${upload.id}`, 100, { reason: 'test', resourceId: upload.id });
    const before = await getBalance(org.id);
    await Promise.all([recoverUploads(service.runtime.ports), recoverUploads(service.runtime.ports)]);
    expect(await getUpload(upload.id)).toMatchObject({ status: 'failed', credits_charged: 100, credits_refunded: 100 });
    expect((await getBalance(org.id)).total).toBe(before.total + 100);
    expect((await eventsOf(org.id)).filter((e) => e.type === 'upload.failed')).toHaveLength(1);
    expect(await recoverUploads(service.runtime.ports)).toEqual({ resumed: 0, removed: 0, restarted: 0, failed: 0, settled: 0 });
  });
});

describe('contact crash states', () => {
  const draft = (orgId: string, id: string): ContactRecord => ({
    id,
    organization_id: orgId,
    api_key_id: 'k',
    phone: '+12125550177',
    properties: {},
    status: 'creating',
    validation_tier: 'standard',
    credits_charged: 0,
    batch_position: null,
    answer_intent: null,
    identity: null,
    error_message: null,
    callback_url: null,
    callback_secret: null,
    pool_upload_id: null,
    created_at: PAST,
    updated_at: PAST,
  });

  it('creating after its debit is queued; creating without one is removed; nothing charged again', async () => {
    const org = await admin.createOrganization({ name: 'Half made', credits: 10 });
    const charged = draft(org.id, '88888888-8888-4888-8888-888888888888');
    const uncharged = draft(org.id, '99999999-9999-4999-8999-999999999999');
    await insertContact(charged, PAST);
    await insertContact(uncharged, PAST);
    await debit(org.id, `contact:${charged.id}`, 1, { reason: 'test', resourceId: charged.id });
    expect(await recoverCreatingContacts()).toEqual({ resumed: 1, removed: 1 });
    expect(await getContact(charged.id)).toMatchObject({ status: 'queued', credits_charged: 1 });
    expect(await getContact(uncharged.id)).toBeNull();
    expect((await getBalance(org.id)).total).toBe(9);
    expect(await recoverCreatingContacts()).toEqual({ resumed: 0, removed: 0 });
  });

  it('a create killed between its charge and its write: given back without a claim, finished from its claim; a claim never charged is released', async () => {
    const org = await admin.createOrganization({ name: 'Cut short', credits: 10 });
    const charge = (id: string, intent: boolean) => chargeBeforeWrite(org.id, `contact:${id}`, { amount: 1 }, { reason: 'test', resourceId: id, fresh: true, intent });
    // Charged, nothing written, no claim: given back whole, nothing recorded.
    await charge('b1111111-1111-4111-8111-111111111111', false);
    // Charged and its ledger entry written, the contact not (a batch write cut short): refunded, recorded.
    await putItems([ledgerEntryOf(await charge('b2222222-2222-4222-8222-222222222222', false))]);
    // A claim holding its contact, charged: finished as the request would have.
    const claimed = { ...draft(org.id, 'b3333333-3333-4333-8333-333333333333'), status: 'queued' as const, created_at: new Date().toISOString() };
    await claimIdempotencyKey(org.id, 'k', 'finish-me', { contact_id: claimed.id, fingerprint: 'f', created_at: claimed.created_at }, claimed, PAST);
    await charge(claimed.id, true);
    // A claim never charged: released, so a retry with its key starts again.
    const unpaid = { ...claimed, id: 'b4444444-4444-4444-8444-444444444444' };
    await claimIdempotencyKey(org.id, 'k', 'release-me', { contact_id: unpaid.id, fingerprint: 'f', created_at: unpaid.created_at }, unpaid, PAST);
    expect((await getBalance(org.id)).total).toBe(7);

    const summary = await recoverCreatingContacts(new Date(Date.now() + 1_000).toISOString());
    expect(summary.resumed).toBeGreaterThanOrEqual(1);
    expect(summary.removed).toBeGreaterThanOrEqual(3);
    expect(await getContact('b1111111-1111-4111-8111-111111111111')).toBeNull();
    expect(await getContact('b2222222-2222-4222-8222-222222222222')).toBeNull();
    expect(await getContact(claimed.id)).toMatchObject({ status: 'queued', credits_charged: 1 });
    expect(await getContact(unpaid.id)).toBeNull();
    // Only the finished contact is paid for, and nothing is left marked.
    expect((await getBalance(org.id)).total).toBe(9);
    expect(Object.keys((await getBalanceItem(org.id))!.inflight)).toEqual([]);
    // Nothing more to do, and nothing charged again; the finished contact completes.
    await recoverCreatingContacts(new Date(Date.now() + 1_000).toISOString());
    expect((await getBalance(org.id)).total).toBe(9);
    await runContactPool(service.runtime.ports);
    await service.runtime.settleWorkflows();
    expect(await getContact(claimed.id)).toMatchObject({ status: 'completed', credits_charged: 1 });
  });

  it('completed with its event unpublished: the drain publishes it once, with the callback', async () => {
    const org = await admin.createOrganization({ name: 'Unpublished', credits: 10 });
    const contact = { ...draft(org.id, 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa'), status: 'processing' as const, callback_url: 'https://hooks.example.test/cb', callback_secret: 's' };
    await insertContact(contact, PAST);
    // A stand-in payload (only the publication is under test), so not through CONTACT_COMPLETED's typed data.
    const event: EventEnvelope = { id: 'evt_00000000000000000000000000000001', type: 'contact.completed', api_version: API_VERSION, created_at: PAST, data: { contact: { id: contact.id } } };
    const key = contactItemKey(contact.id);
    // The state change with its event, and then the process died.
    await transitionContact(contact, ['processing'], 'completed', { answer_intent: 'Likely Answer', ...outboxFields(key, [{ organization_id: org.id, event, callback: { url: contact.callback_url, secret: 's' } }], PAST) }, PAST);
    expect(await eventsOf(org.id)).toEqual([]);
    const drained = await drainOutbox(service.runtime.ports, new Date().toISOString());
    expect(drained).toEqual({ items: 1, events: 1 });
    expect(await eventsOf(org.id)).toEqual([{ id: event.id, type: 'contact.completed' }]);
    const callbacks = await db().send(new QueryCommand({ TableName: tableName(), IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${org.id}#CALLBACKS` } }));
    expect(callbacks.Items).toHaveLength(1);
    expect(await drainOutbox(service.runtime.ports, new Date().toISOString())).toEqual({ items: 0, events: 0 });
    expect(await getContact(contact.id)).toMatchObject({ status: 'completed' });
  });
});

describe('job crash states', () => {
  it('a pool run killed while holding its lease: a restart releases it and pools at once; a lease taken since is kept', async () => {
    const { key } = await newCustomer({ name: 'Leased pool', credits: 10 });
    const created = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '+12125550177' } });
    expect(created.status).toBe(201);
    const contactId = ((await created.json()) as { id: string }).id;
    // What a pool run killed mid-way leaves: its lease, minutes from expiring.
    const leaseKey = { pk: 'LEASE#contact-pool', sk: 'META' };
    await db().send(new PutCommand({ TableName: tableName(), Item: { ...leaseKey, entity: 'Lease', version: 1, holder: 'killed', taken_at: Date.now() - 1_000, expires_at: Date.now() + 6 * 60_000 } }));
    expect((await runContactPool(service.runtime.ports)).pooled).toBe(0);

    // A lease taken after the restart began belongs to the new process: kept.
    expect(await releaseLeasesTakenBefore(['contact-pool'], Date.now() - 60_000)).toBe(0);
    await recoverAfterRestart(service.runtime.ports, new Date().toISOString());
    expect((await db().send(new GetCommand({ TableName: tableName(), Key: leaseKey }))).Item).toBeUndefined();
    expect((await runContactPool(service.runtime.ports)).pooled).toBe(1);
    await service.runtime.settleWorkflows();
    expect(await getContact(contactId)).toMatchObject({ status: 'completed' });
  });
  it('a pool run killed before its upload became ready: the next run makes that upload again before the contacts leave the queue, whichever of it and recovery comes first', async () => {
    for (const recoveryFirst of [false, true]) {
      const { key, org } = await newCustomer({ name: `Pool left charging ${recoveryFirst}`, credits: 1000 });
      const organizationId = org.id;
      const created = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '+12125550178' } });
      expect(created.status).toBe(201);
      const contact = (await getContact(((await created.json()) as { id: string }).id))!;
      // What the killed run left: the contact processing in a pool upload still charging (no
      // charge: pool uploads cost nothing), its queue entry still there, the upload stale.
      const poolId = recoveryFirst ? '66666666-6666-4666-8666-666666666661' : '66666666-6666-4666-8666-666666666662';
      expect(await transitionContact(contact, ['queued'], 'processing', { pool_upload_id: poolId }, new Date().toISOString())).not.toBeNull();
      const left = await uploadIn('charging', organizationId, poolId);
      await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: `UPLOAD#${left.id}`, sk: 'META' }, UpdateExpression: 'SET #source = :pool, credits_required = :zero', ExpressionAttributeNames: { '#source': 'source' }, ExpressionAttributeValues: { ':pool': 'api_pool', ':zero': 0 } }));
      const before = await getBalance(organizationId);

      // In AWS the pool's schedule and recovery's are independent: either may come first.
      if (recoveryFirst) {
        await recoverUploads(service.runtime.ports);
        expect(await getUpload(poolId)).toBeNull();
      }
      expect((await runContactPool(service.runtime.ports)).resumed).toBeGreaterThanOrEqual(1);
      await recoverUploads(service.runtime.ports);
      await service.runtime.settleWorkflows();
      expect(await getContact(contact.id)).toMatchObject({ status: 'completed', pool_upload_id: poolId });
      expect(await getUpload(poolId)).toMatchObject({ status: 'completed', source: 'api_pool', credits_charged: 0 });
      expect(await getBalance(organizationId)).toEqual(before);
    }
  });
});
