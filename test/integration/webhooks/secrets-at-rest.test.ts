import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { startReceiver, header, type ReceivedRequest, type Receiver } from './receiver';
import { db, tableName } from '../../../lambdas/platform/table';
import { enqueueCallback } from '../../../lambdas/webhooks/events';
import { emitEvent } from '../../support/emit-event';
import { getDelivery } from '../../../lambdas/webhooks/delivery-repository';
import { getEndpoint, putEndpoint } from '../../../lambdas/webhooks/endpoint-repository';
import { verifyWebhook } from '../../../lambdas/webhooks/verify-signature';
import { getContact, transitionContact } from '../../../lambdas/contacts/contact-repository';
import { handlePoolUploadFinished } from '../../../lambdas/contacts/pool-results';
import { newId } from '../../../lambdas/platform/ids';
import { waitFor } from '../../support/wait';

// Signing secrets at rest (docs/webhooks.md): the table holds them sealed, the API shows a webhook
// secret once, deliveries still verify with it, and items written before sealing still sign.

process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
const service = useTestService();
let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => receiver.close());
beforeEach(() => {
  receiver.requests.length = 0;
});

const rawItem = async (pk: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: { pk, sk: 'META' }, ConsistentRead: true }))).Item!;

/** The requests of one event, once its delivery has arrived. */
async function deliveredEvent(eventId: string): Promise<ReceivedRequest> {
  for (;;) {
    const found = receiver.requests.find((r) => header(r, 'x-service-event-id') === eventId || r.body.includes(eventId));
    if (found) return found;
    await receiver.waitFor(receiver.requests.length + 1);
  }
}

const verifies = (request: ReceivedRequest, secret: string) => verifyWebhook(request.body, header(request, 'x-service-signature'), secret);

async function newEndpoint(path: string): Promise<{ id: string; secret: string; body: string }> {
  const res = await service.request('POST', '/api/v1/webhooks', { body: { url: `${receiver.url}${path}`, events: ['upload.completed'] } });
  expect(res.status).toBe(201);
  const body = await res.text();
  const parsed = JSON.parse(body) as { webhook: { id: string }; secret: string };
  return { id: parsed.webhook.id, secret: parsed.secret, body };
}

describe('webhook secrets at rest', () => {
  it('are stored sealed; the secret returned once still verifies deliveries and the ping of a changed URL', async () => {
    const { id, secret, body } = await newEndpoint('/a');
    expect(body).toContain(secret); // shown once, at creation
    expect(verifies(receiver.requests.find((r) => r.body.includes('webhook.ping'))!, secret)).toMatchObject({ type: 'webhook.ping' });

    const item = await rawItem(`WEBHOOK#${id}`);
    expect(JSON.stringify(item)).not.toContain(secret);
    expect(item.secret).toMatchObject({ v: 1, alg: 'local-aes-256-gcm' });
    for (const path of [`/api/v1/webhooks/${id}`, '/api/v1/webhooks', `/api/v1/webhooks/${id}/deliveries`]) {
      expect(await (await service.request('GET', path)).text()).not.toContain(secret);
    }

    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { upload: { id: 'u1' } } });
    expect(verifies(await deliveredEvent(event.id), secret)).toEqual(event);

    receiver.requests.length = 0;
    const patched = await service.request('PATCH', `/api/v1/webhooks/${id}`, { body: { url: `${receiver.url}/b` } });
    expect(patched.status).toBe(200);
    expect(await patched.text()).not.toContain(secret);
    const ping = receiver.requests.find((r) => r.path === '/hook/b')!;
    expect(verifies(ping, secret)).toMatchObject({ type: 'webhook.ping' });
    await service.request('DELETE', `/api/v1/webhooks/${id}`);
  });

  it('an endpoint written before sealing (plaintext secret) still signs, deliveries and ping alike', async () => {
    const { id } = await newEndpoint('/legacy');
    const legacySecret = 'b'.repeat(64);
    // The item as the code before this change wrote it: the secret as a plaintext string.
    const current = (await getEndpoint(id))!;
    const legacyId = newId();
    await putEndpoint({ ...current, id: legacyId, url: `${receiver.url}/legacy`, secret: legacySecret });
    expect((await rawItem(`WEBHOOK#${legacyId}`)).secret).toBe(legacySecret);
    await service.request('DELETE', `/api/v1/webhooks/${id}`);

    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { upload: { id: 'u2' } } });
    expect(verifies(await deliveredEvent(event.id), legacySecret)).toEqual(event);
    receiver.requests.length = 0;
    expect((await service.request('PATCH', `/api/v1/webhooks/${legacyId}`, { body: { url: `${receiver.url}/legacy2` } })).status).toBe(200);
    expect(verifies(receiver.requests.find((r) => r.path === '/hook/legacy2')!, legacySecret)).toMatchObject({ type: 'webhook.ping' });
    await service.request('DELETE', `/api/v1/webhooks/${legacyId}`);
  });

  it('a sealed secret moved to another endpoint does not open: the delivery ends unsigned and unsent', async () => {
    const a = await newEndpoint('/moved-a');
    const b = await newEndpoint('/moved-b');
    const endpointA = (await getEndpoint(a.id))!;
    const endpointB = (await getEndpoint(b.id))!;
    // Someone with write access to the table points B at A's sealed secret (bound to A's id).
    await service.request('DELETE', `/api/v1/webhooks/${b.id}`);
    await putEndpoint({ ...endpointB, secret: endpointA.secret });
    await service.request('DELETE', `/api/v1/webhooks/${a.id}`);
    receiver.requests.length = 0;

    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { upload: { id: 'u3' } } });
    const delivery = await waitFor(
      'the delivery exhausted',
      async () => {
        const log = (await (await service.request('GET', `/api/v1/webhooks/${b.id}/deliveries`)).json()) as { data: { id: string; event_id: string }[] };
        const entry = log.data.find((d) => d.event_id === event.id);
        const found = entry ? await getDelivery(entry.id) : null;
        return found?.state === 'exhausted' ? found : null;
      },
      30_000,
      20,
    );
    expect(delivery).toMatchObject({ state: 'exhausted', exhausted_reason: 'signing secret could not be opened', attempt_count: 0 });
    expect(receiver.requests.filter((r) => r.path.startsWith('/hook/moved') && r.body.includes(event.id))).toHaveLength(0);
    await service.request('DELETE', `/api/v1/webhooks/${b.id}`);
  });
});

describe('callback secrets at rest', () => {
  const SECRET = 'callback-secret-at-rest-0123456789';

  it('are stored sealed on the contact, its outbox and its delivery; the callback verifies with the secret given', async () => {
    const { key } = await newCustomer({ name: 'Secrets at rest', credits: 5 });
    const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550143', callback_url: `${receiver.url}/cb`, callback_secret: SECRET } });
    expect(res.status).toBe(201);
    const text = await res.text();
    expect(text).not.toContain(SECRET);
    const contactId = (JSON.parse(text) as { id: string }).id;
    const item = await rawItem(`CONTACT#${contactId}`);
    expect(JSON.stringify(item)).not.toContain(SECRET);
    expect(item.callback_secret).toMatchObject({ v: 1, alg: 'local-aes-256-gcm' });

    const uploadId = '22222222-2222-4222-8222-222222222222';
    const contact = (await getContact(contactId))!;
    await transitionContact(contact, ['queued'], 'processing', { pool_upload_id: uploadId }, new Date().toISOString());
    const rows = [{ contact_id: contactId, answerIntent: 'Likely Answer' as const, identity: null, status: '1 - Likely Right-Party Answer' }];
    expect(await handlePoolUploadFinished(service.runtime.ports, { id: uploadId, status: 'completed' }, rows, [contactId])).toEqual({ completed: 1, failed: 0 });

    const request = await (async () => {
      for (;;) {
        const found = receiver.requests.find((r) => r.path === '/hook/cb');
        if (found) return found;
        await receiver.waitFor(receiver.requests.length + 1);
      }
    })();
    expect(verifies(request, SECRET)).toMatchObject({ type: 'contact.completed' });
    const deliveryItem = await rawItem(`DELIVERY#${header(request, 'x-service-delivery-id')}`);
    expect(JSON.stringify(deliveryItem)).not.toContain(SECRET);
    expect(deliveryItem.callback_secret).toMatchObject({ v: 1, alg: 'local-aes-256-gcm' });
    expect(JSON.stringify(await rawItem(`CONTACT#${contactId}`))).not.toContain(SECRET);
  });

  it('a callback delivery written before sealing (plaintext secret) still signs', async () => {
    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'contact.completed', data: { contact: { id: 'legacy' } } });
    const deliveryId = await enqueueCallback(service.runtime.ports, { organizationId: service.organizationId, url: `${receiver.url}/legacy-cb`, secret: SECRET, event });
    expect((await rawItem(`DELIVERY#${deliveryId}`)).callback_secret).toBe(SECRET);
    const request = await deliveredEvent(event.id);
    expect(request.path).toBe('/hook/legacy-cb');
    expect(verifies(request, SECRET)).toEqual(event);
  });
});
