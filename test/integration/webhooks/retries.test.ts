import type { SQSEvent } from 'aws-lambda';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { logger } from '../../../lambdas/platform/logger';
import { useTestService } from '../../support/runtime';
import { startReceiver, header, type Receiver, type ReceiverMode } from './receiver';
import { verifyWebhook } from '../../../lambdas/webhooks/verify-signature';
import { enqueueCallback } from '../../../lambdas/webhooks/events';
import { emitEvent } from '../../support/emit-event';
import { systemNet } from '../../../lambdas/platform/net/outbound';
import type { DeliveryQueue } from '../../../lambdas/webhooks/delivery-queue-port';
import { claimAttempt, getDelivery } from '../../../lambdas/webhooks/delivery-repository';
import { deliveryConsumer } from '../../../lambdas/functions/queues/webhook-delivery';
import { sweepDueDeliveries } from '../../../lambdas/webhooks/sweeper';
import { fanOutToEndpoints } from '../../../lambdas/webhooks/fan-out';

process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';

/** What the delivery chain asked the queue to carry, instead of an in-process timer. */
let enqueued: Array<{ id: string; dueAtMs: number; atMs: number }> = [];
const recording: DeliveryQueue = { enqueue: async (id, dueAtMs) => void enqueued.push({ id, dueAtMs, atMs: clock }) };
/** The queue of this file's runtime: recording, or one that loses every message when a test says so. */
let queue: DeliveryQueue = recording;
/** The per-attempt timeout of this file's runtime (a test shortens it for a hanging receiver). */
let timeoutMs = systemNet().timeoutMs;
const setRequestTimeoutMs = (ms: number | null) => {
  timeoutMs = ms ?? systemNet().timeoutMs;
};
const service = useTestService({
  ports: {
    deliveryQueue: { enqueue: (id, dueAtMs) => queue.enqueue(id, dueAtMs) },
    net: {
      ...systemNet(),
      get timeoutMs() {
        return timeoutMs;
      },
    },
  },
});
const consumer = (event: SQSEvent) => deliveryConsumer(service.runtime.ports)(event);
// Each test starts a week after the previous one ended: the clock only moves forward, as the rate
// limiter's token buckets expect.
let T0 = Date.UTC(2026, 5, 1, 12, 0, 0);
let clock = T0;
let receiver: Receiver;

beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver.close();
  service.clock.set(null);
  setRequestTimeoutMs(null);
});
beforeEach(() => {
  // Time moves only when the test says so; messages are delivered only when the test says so.
  T0 = Math.max(T0, clock) + 7 * 86_400_000;
  clock = T0;
  service.clock.set(() => clock);
  enqueued = [];
  queue = recording;
  receiver.mode = { kind: 'status', status: 200 };
  receiver.requests.length = 0;
});
afterEach(() => {
  queue = recording;
  vi.restoreAllMocks();
});

/** The logger's lines of one level, as (message, keys), from the moment this is called. */
function logLines(level: 'info' | 'warn' | 'error'): Array<[string, Record<string, unknown>]> {
  const lines: Array<[string, Record<string, unknown>]> = [];
  vi.spyOn(logger, level).mockImplementation((message: string, extra?: Record<string, unknown>) => void lines.push([message, extra ?? {}]));
  return lines;
}

const sqsEvent = (ids: string[]): SQSEvent => ({
  Records: ids.map((id, i) => ({ messageId: `m${i}`, body: JSON.stringify({ delivery_id: id }) }) as SQSEvent['Records'][number]),
});

async function createEndpoint(events?: string[]): Promise<{ id: string; secret: string }> {
  const res = await service.request('POST', '/api/v1/webhooks', { body: { url: receiver.url, ...(events ? { events } : {}) } });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { webhook: { id: string }; secret: string };
  return { id: body.webhook.id, secret: body.secret };
}

async function endpoint(id: string) {
  return (await (await service.request('GET', `/api/v1/webhooks/${id}`)).json()) as {
    is_active: boolean;
    consecutive_failures: number;
    disabled_at: string | null;
    updated_at: string;
    last_success_at: string | null;
    last_failure_at: string | null;
  };
}

const WAITS_S = [60, 300, 1800, 7200, 43200];

describe.each<[string, ReceiverMode, RegExp | number]>([
  ['answering 500', { kind: 'status', status: 500 }, 500],
  ['timing out', { kind: 'hang' }, /timed out/],
  ['closing the connection', { kind: 'close' }, /closed|socket|ECONNRESET/i],
])('a receiver %s', (_name, mode, failure) => {
  it('sees attempts 2…6 at 1 min, 5 min, 30 min, 2 h, 12 h, then the delivery is exhausted', () => service.clock.run(async () => {
    setRequestTimeoutMs(300);
    const { id: webhookId, secret } = await createEndpoint();
    receiver.requests.length = 0;
    receiver.mode = mode;

    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.failed', data: { error_message: 'x' } });
    expect(enqueued).toHaveLength(1);
    const deliveryId = enqueued[0]!.id;
    expect(enqueued[0]!.dueAtMs).toBe(T0);

    // Attempt 1: the queue message arrives.
    expect(await consumer(sqsEvent([deliveryId]))).toEqual({ batchItemFailures: [] });
    let due = T0;
    for (const [index, wait] of WAITS_S.entries()) {
      due += wait * 1000;
      // The chain asked for the next attempt exactly `wait` after the previous one.
      expect(enqueued.at(-1)).toMatchObject({ id: deliveryId, dueAtMs: due });
      // One second early, neither the queue nor the sweeper attempts it.
      clock = due - 1000;
      await consumer(sqsEvent([deliveryId]));
      expect((await sweepDueDeliveries(service.runtime.ports, { overdueMs: 0 })).attempted).toBe(0);
      expect(receiver.requests).toHaveLength(index + 1);
      // On time, the sweeper (or the queue) makes the attempt.
      clock = due;
      if (index % 2 === 0) await consumer(sqsEvent([deliveryId]));
      else expect((await sweepDueDeliveries(service.runtime.ports, { overdueMs: 0 })).attempted).toBe(1);
      expect(receiver.requests).toHaveLength(index + 2);
    }

    const attempts = receiver.requests;
    expect(attempts.map((r) => header(r, 'x-service-attempt'))).toEqual(['1', '2', '3', '4', '5', '6']);
    expect(new Set(attempts.map((r) => header(r, 'x-service-delivery-id')))).toEqual(new Set([deliveryId]));
    const stamps = attempts.map((r) => Number(header(r, 'x-service-timestamp')));
    expect(stamps.slice(1).map((t, i) => t - stamps[i]!)).toEqual(WAITS_S);
    // Each attempt is signed when sent: valid against its own timestamp, hours after the event.
    for (const r of attempts) {
      const t = Number(header(r, 'x-service-timestamp'));
      expect(verifyWebhook(r.body, header(r, 'x-service-signature'), secret, { now: t }).id).toBe(event.id);
    }
    expect(attempts.every((r) => r.body === attempts[0]!.body)).toBe(true);

    const delivery = (await getDelivery(deliveryId))!;
    expect(delivery.state).toBe('exhausted');
    expect(delivery.next_attempt_at).toBeNull();
    expect(delivery.attempts.map((a) => Date.parse(a.attempted_at) - T0)).toEqual([0, 60, 360, 2160, 9360, 52560].map((s) => s * 1000));
    for (const a of delivery.attempts) {
      if (typeof failure === 'number') expect(a.status_code).toBe(failure);
      else {
        expect(a.status_code).toBeNull();
        expect(a.error).toMatch(failure);
      }
    }
    const queued = enqueued.length;
    clock += 86_400_000;
    await consumer(sqsEvent([deliveryId]));
    expect((await sweepDueDeliveries(service.runtime.ports, { overdueMs: 0 })).attempted).toBe(0);
    expect(receiver.requests).toHaveLength(6);
    expect(enqueued).toHaveLength(queued);

    const counted = await endpoint(webhookId);
    expect(counted.consecutive_failures).toBe(6);
    expect(counted.is_active).toBe(true);
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('the SQS delay chain', () => {
  it('re-enqueues a message that arrives before a wait longer than 15 minutes is over', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.mode = { kind: 'status', status: 502 };
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const deliveryId = enqueued[0]!.id;
    await consumer(sqsEvent([deliveryId])); // attempt 1 at T0
    clock = T0 + 60_000;
    await consumer(sqsEvent([deliveryId])); // attempt 2 at +1 min
    clock = T0 + 360_000;
    await consumer(sqsEvent([deliveryId])); // attempt 3 at +6 min; next due +30 min later
    const due = T0 + 360_000 + 1_800_000;
    expect(enqueued.at(-1)!.dueAtMs).toBe(due);
    const before = receiver.requests.length;
    clock = T0 + 360_000 + 900_000; // SQS delivered after its 900 s maximum delay
    await consumer(sqsEvent([deliveryId]));
    expect(receiver.requests.length).toBe(before);
    expect(enqueued.at(-1)).toEqual({ id: deliveryId, dueAtMs: due, atMs: clock });
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));

  it('reports only the broken message of a batch as failed', () => service.clock.run(async () => {
    const result = await consumer({ Records: [{ messageId: 'bad', body: 'not json' }, { messageId: 'unknown', body: JSON.stringify({ delivery_id: 'dlv_none' }) }] } as SQSEvent);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'bad' }] });
  }));

  it('ends a delivery at once on 410 Gone', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.mode = { kind: 'status', status: 410 };
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const deliveryId = enqueued[0]!.id;
    await consumer(sqsEvent([deliveryId]));
    const delivery = (await getDelivery(deliveryId))!;
    expect(delivery).toMatchObject({ state: 'exhausted', attempt_count: 1, next_attempt_at: null });
    expect(enqueued).toHaveLength(1);
    expect((await endpoint(webhookId)).consecutive_failures).toBe(1);
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('redelivery (an extension: POST …/deliveries/{delivery_id}/redeliver)', () => {
  const redeliver = (webhookId: string, deliveryId: string) => service.request('POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`);

  it('sends an ended delivery again as one more signed attempt with the same ids, once per request pair, and only an ended one', () => service.clock.run(async () => {
    const { id: webhookId, secret } = await createEndpoint();
    receiver.requests.length = 0;
    receiver.mode = { kind: 'status', status: 410 };
    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { n: 1 } });
    const deliveryId = enqueued[0]!.id;
    await consumer(sqsEvent([deliveryId]));
    expect(await getDelivery(deliveryId)).toMatchObject({ state: 'exhausted', attempt_count: 1 });

    // Still failing: one attempt (no new retry chain), and the delivery ends again.
    receiver.mode = { kind: 'status', status: 500 };
    enqueued = [];
    const first = await redeliver(webhookId, deliveryId);
    expect(first.status, await first.clone().text()).toBe(202);
    expect(await first.json()).toMatchObject({ id: deliveryId, state: 'pending', attempt_count: 1, redelivered_at: new Date(clock).toISOString(), exhausted_reason: null });
    expect(enqueued).toEqual([{ id: deliveryId, dueAtMs: clock, atMs: clock }]);
    await consumer(sqsEvent([deliveryId]));
    expect(await getDelivery(deliveryId)).toMatchObject({ state: 'exhausted', attempt_count: 2, next_attempt_at: null });
    expect(enqueued).toHaveLength(1);

    // Now answering: two requests at once (a double click) reopen it once; one attempt succeeds.
    receiver.mode = { kind: 'status', status: 200 };
    enqueued = [];
    const both = await Promise.all([redeliver(webhookId, deliveryId), redeliver(webhookId, deliveryId)]);
    expect(both.map((r) => r.status)).toEqual([202, 202]);
    expect(enqueued).toHaveLength(1);
    await consumer(sqsEvent([deliveryId, deliveryId]));
    expect(await getDelivery(deliveryId)).toMatchObject({ state: 'succeeded', attempt_count: 3 });
    expect(receiver.requests).toHaveLength(3);
    for (const [i, request] of receiver.requests.entries()) {
      expect(verifyWebhook(request.body, header(request, 'x-service-signature'), secret, { now: Math.floor(clock / 1000) }).id).toBe(event.id);
      expect(header(request, 'x-service-delivery-id')).toBe(deliveryId);
      expect(header(request, 'x-service-event-id')).toBe(event.id);
      expect(header(request, 'x-service-attempt')).toBe(String(i + 1));
    }
    expect(new Set(receiver.requests.map((r) => r.body)).size).toBe(1);

    // Succeeded: nothing to send again.
    const done = await redeliver(webhookId, deliveryId);
    expect(done.status).toBe(409);
    expect(await done.json()).toEqual({ detail: 'This delivery succeeded; there is nothing to send again' });
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));

  it('refuses a delivery still in its retry chain, one of another endpoint, an unknown id, and a disabled endpoint', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.mode = { kind: 'status', status: 500 };
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const deliveryId = enqueued[0]!.id;
    await consumer(sqsEvent([deliveryId]));
    const pending = await redeliver(webhookId, deliveryId);
    expect(pending.status).toBe(409);
    expect(await pending.json()).toEqual({ detail: 'This delivery is still being retried; it can be sent again once it has ended' });
    expect((await getDelivery(deliveryId))!.attempt_count).toBe(1);

    for (const [path, status] of [
      [`/api/v1/webhooks/${webhookId}/deliveries/dlv_${'0'.repeat(32)}/redeliver`, 404],
      [`/api/v1/webhooks/${webhookId}/deliveries/not-a-delivery/redeliver`, 404],
      [`/api/v1/webhooks/${webhookId}/deliveries/${encodeURIComponent("dlv_' OR 1=1")}/redeliver`, 404],
      [`/api/v1/webhooks/00000000-0000-4000-8000-000000000000/deliveries/${deliveryId}/redeliver`, 404],
    ] as const) {
      const res = await service.request('POST', path);
      expect(res.status, path).toBe(status);
      expect(((await res.json()) as { detail: string }).detail).toMatch(/^(Delivery|Webhook endpoint) not found$/);
    }
    // Another organization's key cannot reach it.
    const { newCustomer } = await import('../../support/customer');
    const { key } = await newCustomer({ name: 'Other' });
    expect((await service.request('POST', `/api/v1/webhooks/${webhookId}/deliveries/${deliveryId}/redeliver`, { key })).status).toBe(404);

    // Ended by a disabled endpoint: enable it first.
    expect((await service.request('PATCH', `/api/v1/webhooks/${webhookId}`, { body: { is_active: false } })).status).toBe(200);
    clock += 60_000;
    await consumer(sqsEvent([deliveryId]));
    expect(await getDelivery(deliveryId)).toMatchObject({ state: 'exhausted', exhausted_reason: 'endpoint inactive' });
    const disabled = await redeliver(webhookId, deliveryId);
    expect(disabled.status).toBe(409);
    expect(await disabled.json()).toEqual({ detail: 'This endpoint is disabled; enable it before sending a delivery again' });
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('at-least-once', () => {
  it('the sweeper finds a delivery whose message was lost or whose worker died mid-attempt', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.requests.length = 0;
    queue = { enqueue: async () => undefined }; // every message lost
    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const [deliveryId] = await fanOutToEndpoints(service.runtime.ports, service.organizationId, event); // a repeated fan-out adds nothing
    expect((await sweepDueDeliveries(service.runtime.ports)).attempted).toBe(0); // not overdue yet: the queue should get it
    clock = T0 + 60_000;
    // A worker takes the attempt and dies before sending.
    expect(await claimAttempt((await getDelivery(deliveryId!))!, clock, 60_000)).toBe(true);
    expect((await sweepDueDeliveries(service.runtime.ports)).attempted).toBe(0);
    expect(receiver.requests).toHaveLength(0);
    clock = T0 + 121_000; // the lease lapsed
    expect((await sweepDueDeliveries(service.runtime.ports)).attempted).toBe(1);
    expect(receiver.requests).toHaveLength(1);
    expect((await getDelivery(deliveryId!))!.state).toBe('succeeded');
    expect((await endpoint(webhookId)).last_success_at).toBe(new Date(clock).toISOString());
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('the log lines of delivery attempts', () => {
  it('a failed attempt that will be retried is a WARN, the give-up an ERROR, with delivery_state, attempt, next_attempt_at and http_status', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.requests.length = 0;
    receiver.mode = { kind: 'status', status: 503 };
    const [infos, warns, errors] = [logLines('info'), logLines('warn'), logLines('error')];
    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const deliveryId = enqueued[0]!.id;
    let due = T0;
    await consumer(sqsEvent([deliveryId]));
    for (const wait of WAITS_S) {
      due += wait * 1000;
      clock = due;
      await consumer(sqsEvent([deliveryId]));
    }
    expect(receiver.requests).toHaveLength(6);

    const about = { delivery_id: deliveryId, webhook_id: webhookId, event_id: event.id, event_type: 'upload.completed', organization_id: service.organizationId, http_status: 503 };
    const attemptWarns = warns.filter(([message]) => message.startsWith('webhook delivery'));
    expect(attemptWarns.map(([, keys]) => keys.attempt)).toEqual([1, 2, 3, 4, 5]);
    let next = T0;
    for (const [index, [message, keys]] of attemptWarns.entries()) {
      next += WAITS_S[index]! * 1000;
      expect(message).toBe('webhook delivery attempt failed, will retry');
      expect(keys).toMatchObject({ ...about, delivery_state: 'pending', max_attempts: 6, next_attempt_at: new Date(next).toISOString() });
      expect(keys).not.toHaveProperty('state');
    }
    const gaveUp = errors.filter(([message]) => message === 'webhook delivery gave up');
    expect(gaveUp).toHaveLength(1);
    expect(gaveUp[0]![1]).toMatchObject({ ...about, attempt: 6, delivery_state: 'exhausted', gave_up_because: 'all 6 attempts failed' });
    expect(gaveUp[0]![1]).not.toHaveProperty('state');
    expect(gaveUp[0]![1]).not.toHaveProperty('next_attempt_at');
    // No failure is reported at INFO.
    expect(infos.filter(([, keys]) => keys.delivery_id === deliveryId)).toEqual([]);

    // A success is INFO.
    receiver.mode = { kind: 'status', status: 200 };
    enqueued = [];
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    await consumer(sqsEvent([enqueued[0]!.id]));
    expect(infos.find(([, keys]) => keys.delivery_id === enqueued[0]!.id)).toMatchObject(['webhook delivery attempt succeeded', { delivery_state: 'succeeded', attempt: 1, http_status: 200 }]);

    // A pending delivery ended unsent because its endpoint was switched off: given up, an ERROR.
    receiver.mode = { kind: 'status', status: 500 };
    enqueued = [];
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    const skippedId = enqueued[0]!.id;
    await consumer(sqsEvent([skippedId]));
    expect((await service.request('PATCH', `/api/v1/webhooks/${webhookId}`, { body: { is_active: false } })).status).toBe(200);
    clock += 60_000;
    await consumer(sqsEvent([skippedId]));
    expect(errors.find(([, keys]) => keys.delivery_id === skippedId)).toMatchObject(['webhook delivery gave up', { delivery_state: 'exhausted', gave_up_because: 'endpoint inactive', attempts_made: 1, webhook_id: webhookId }]);
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('auto-disable', () => {
  it('disables after 20 consecutive failures, skips further deliveries, and PATCH is_active re-enables', () => service.clock.run(async () => {
    const { id: webhookId } = await createEndpoint();
    receiver.mode = { kind: 'status', status: 500 };
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      enqueued = [];
      await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: { i } });
      ids.push(enqueued[0]!.id);
    }
    await consumer(sqsEvent(ids.slice(0, 10)));
    await consumer(sqsEvent(ids.slice(10, 19)));
    expect(await endpoint(webhookId)).toMatchObject({ is_active: true, consecutive_failures: 19, disabled_at: null, updated_at: new Date(T0).toISOString() });
    clock = T0 + 5_000;
    const errors = logLines('error');
    await consumer(sqsEvent(ids.slice(19)));
    expect(errors).toContainEqual(['webhook endpoint auto-disabled', { webhook_id: webhookId, consecutive_failures: 20 }]);
    const disabled = await endpoint(webhookId);
    // Switching the endpoint off is a change of the endpoint: updated_at moves with disabled_at.
    expect(disabled).toMatchObject({ is_active: false, consecutive_failures: 20, disabled_at: new Date(clock).toISOString(), updated_at: new Date(clock).toISOString() });

    // No new deliveries, and pending retries end without another request.
    enqueued = [];
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    expect(enqueued).toHaveLength(0);
    const sent = receiver.requests.length;
    clock = T0 + 120_000;
    await sweepDueDeliveries(service.runtime.ports, { overdueMs: 0 });
    expect(receiver.requests.length).toBe(sent);
    expect((await getDelivery(ids[0]!))!).toMatchObject({ state: 'exhausted', exhausted_reason: 'endpoint inactive' });

    const res = await service.request('PATCH', `/api/v1/webhooks/${webhookId}`, { body: { is_active: true } });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ is_active: true, consecutive_failures: 0, disabled_at: null });

    // A failure counts again from zero; a success resets the count.
    enqueued = [];
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    await consumer(sqsEvent([enqueued[0]!.id]));
    expect((await endpoint(webhookId)).consecutive_failures).toBe(1);
    receiver.mode = { kind: 'status', status: 204 };
    enqueued = [];
    await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'upload.completed', data: {} });
    await consumer(sqsEvent([enqueued[0]!.id]));
    expect(await endpoint(webhookId)).toMatchObject({ consecutive_failures: 0, is_active: true });

    // Manual disable keeps disabled_at for auto-disables only.
    const off = await service.request('PATCH', `/api/v1/webhooks/${webhookId}`, { body: { is_active: false } });
    expect(await off.json()).toMatchObject({ is_active: false, disabled_at: null });
    await service.request('DELETE', `/api/v1/webhooks/${webhookId}`);
  }));
});

describe('per-contact callbacks', () => {
  it('are signed with the callback secret, carry every header, and retry like webhooks', () => service.clock.run(async () => {
    receiver.mode = { kind: 'status', status: 503 };
    const event = await emitEvent(service.runtime.ports, { organizationId: service.organizationId, type: 'contact.completed', data: { contact: { id: 'c1', validation_tier: 'standard' } } });
    enqueued = [];
    const deliveryId = await enqueueCallback(service.runtime.ports, { organizationId: service.organizationId, url: `${receiver.url}?contact=c1`, secret: 'callback-secret', event });
    expect(await enqueueCallback(service.runtime.ports, { organizationId: service.organizationId, url: `${receiver.url}?contact=c1`, secret: 'callback-secret', event })).toBe(deliveryId);
    await consumer(sqsEvent([deliveryId]));
    receiver.mode = { kind: 'status', status: 200 };
    clock = T0 + 60_000;
    await consumer(sqsEvent([deliveryId]));
    expect(receiver.requests).toHaveLength(2);
    const [first, second] = receiver.requests;
    expect(first!.path).toBe('/hook?contact=c1');
    expect(header(second!, 'x-service-attempt')).toBe('2');
    expect(header(second!, 'x-service-delivery-id')).toBe(deliveryId);
    expect(header(second!, 'x-service-event')).toBe('contact.completed');
    expect(header(second!, 'user-agent')).toBe('Service-Webhooks/1.0');
    expect(verifyWebhook(second!.body, header(second!, 'x-service-signature'), 'callback-secret', { now: Math.floor(clock / 1000) })).toEqual(event);
    expect((await getDelivery(deliveryId))!.state).toBe('succeeded');
  }));
});
