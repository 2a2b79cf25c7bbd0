import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { getBalance } from '../../../lambdas/credits/credits';
import { getContact, transitionContact } from '../../../lambdas/contacts/contact-repository';
import { handlePoolUploadFinished } from '../../../lambdas/contacts/pool-results';
import { verifyWebhook } from '../../../lambdas/webhooks/verify-signature';
import { newCustomer } from '../../support/customer';

process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => receiver.close());

const SECRET = 'callback-secret-0123456789';

const setup = (credits: number) => newCustomer({ name: 'Outcomes', credits });

async function create(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await service.request('POST', '/api/v2/contacts', { key, body });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

async function intoPool(ids: string[], uploadId: string) {
  for (const id of ids) {
    const contact = (await getContact(id))!;
    expect(await transitionContact(contact, ['queued'], 'processing', { pool_upload_id: uploadId }, new Date().toISOString())).not.toBeNull();
  }
}

describe('contact outcomes from a finished pool', () => {
  it('completes with results, sends a verified callback, and fails-and-refunds a missing row exactly once', async () => {
    const { org, key } = await setup(10);
    const done = await create(key, { phone: '2125550143', validation_tier: 'max', properties: { full_name: 'Ada Lovelace' }, callback_url: receiver.url, callback_secret: SECRET });
    const missing = await create(key, { phone: '2125550144', validation_tier: 'max' });
    expect((await getBalance(org.id)).total).toBe(10 - 3);
    const uploadId = '11111111-1111-4111-8111-111111111111';
    await intoPool([done, missing], uploadId);

    const rows = [{ contact_id: done, answerIntent: 'Likely Answer' as const, identity: 'High' as const, status: '1 - Likely Right-Party Answer' }];
    expect(await handlePoolUploadFinished(service.runtime.ports, { id: uploadId, status: 'completed' }, rows, [done, missing])).toEqual({ completed: 1, failed: 1 });
    // Repeating the step changes nothing more.
    expect(await handlePoolUploadFinished(service.runtime.ports, { id: uploadId, status: 'completed' }, rows, [done, missing])).toEqual({ completed: 0, failed: 0 });

    const v2 = (await (await service.request('GET', `/api/v2/contacts/${done}`, { key })).json()) as Record<string, unknown>;
    expect(v2).toMatchObject({ status: 'completed', service_status: '1 - Likely Right-Party Answer', service_answer_intent: 'Likely Answer', service_identity: 'High', message: null });
    const v1 = (await (await service.request('GET', `/api/v1/contacts/${done}`, { key })).json()) as Record<string, unknown>;
    expect(v1.service_status).toBe('Likely Answer');
    const failed = (await (await service.request('GET', `/api/v1/contacts/${missing}`, { key })).json()) as Record<string, unknown>;
    expect(failed).toMatchObject({ status: 'failed', message: null });
    expect(failed.error_message).toMatch(/No result|missing/i);
    // The failed contact's 1 credit (second in the max batch) came back; nothing else moved.
    expect((await getBalance(org.id)).total).toBe(10 - 2);

    await receiver.waitFor(1);
    const request = receiver.requests.find((r) => r.body.includes(done))!;
    const event = verifyWebhook<{ contact: Record<string, unknown> }>(request.body, String(request.headers['x-service-signature']), SECRET);
    expect(event.type).toBe('contact.completed');
    expect(event.data.contact).toMatchObject({ id: done, service_status: 'Likely Answer', service_tier: '1 - Likely Right-Party Answer', service_identity: 'High', validation_tier: 'max' });
    expect(request.headers['x-service-event']).toBe('contact.completed');
  });

  it('a contact without a name: its contact.completed event and GET /api/v2 say the same (service_answer_intent null)', async () => {
    const { key } = await setup(5);
    const plain = await create(key, { phone: '2125550145', properties: { crm_id: 9 }, callback_url: receiver.url, callback_secret: SECRET });
    const uploadId = '33333333-3333-4333-8333-333333333333';
    await intoPool([plain], uploadId);
    const rows = [{ contact_id: plain, answerIntent: 'Likely Voicemail' as const, identity: null, status: 'Likely Voicemail' }];
    expect(await handlePoolUploadFinished(service.runtime.ports, { id: uploadId, status: 'completed' }, rows, [plain])).toEqual({ completed: 1, failed: 0 });

    const v2 = (await (await service.request('GET', `/api/v2/contacts/${plain}`, { key })).json()) as Record<string, unknown>;
    expect(v2).toMatchObject({ status: 'completed', service_status: 'Likely Voicemail', service_answer_intent: null, service_identity: null });
    const v1 = (await (await service.request('GET', `/api/v1/contacts/${plain}`, { key })).json()) as Record<string, unknown>;

    const arrived = () => receiver.requests.find((r) => r.body.includes(plain));
    while (!arrived()) await receiver.waitFor(receiver.requests.length + 1);
    const request = arrived()!;
    const event = verifyWebhook<{ contact: Record<string, unknown> }>(request.body, String(request.headers['x-service-signature']), SECRET);
    expect(event.data.contact).toEqual({ ...v1, service_tier: v2.service_status, service_answer_intent: v2.service_answer_intent, service_identity: v2.service_identity });
  });

  it('a failed upload fails and refunds every contact of its pool', async () => {
    const { org, key } = await setup(5);
    const a = await create(key, { phone: '3125550101' });
    const b = await create(key, { phone: '3125550102' });
    await intoPool([a, b], '22222222-2222-4222-8222-222222222222');
    expect(await handlePoolUploadFinished(service.runtime.ports, { id: '22222222-2222-4222-8222-222222222222', status: 'failed', error_message: 'provider down' }, [], [a, b])).toEqual({ completed: 0, failed: 2 });
    expect((await getBalance(org.id)).total).toBe(5);
    // Spoken to the integrator: what happened and what to do, nothing internal (issue 16, item 10).
    expect((await getContact(a))?.error_message).toMatch(/Processing failed on our side; its credits were refunded/);
    expect((await getContact(a))?.error_message).not.toMatch(/22222222|upload/);
  });
});
