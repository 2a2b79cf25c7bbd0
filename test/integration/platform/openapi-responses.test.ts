import { readFileSync, writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OpenApiExamples } from '../../../lambdas/platform/openapi';
import { reloadConfig } from '../../../lambdas/platform/config';
import * as admin from '../../../lambdas/admin/admin';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { responseValidator, type ResponseValidator } from '../../support/openapi-validator';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { emitEvent } from '../../support/emit-event';
import { waitFor } from '../../support/wait';

// Real requests against the local runtime, each held to the served OpenAPI document by a validator
// built from it (test/support/openapi-validator.ts): a status, a service header or a body the
// document does not describe fails the test. The flows cover every operation, its success and the
// errors a client meets (401, 400, 402, 403, 404, 409, 410, 413, 415, 422, 429).

// A small per-key bucket, so a 429 costs a few calls rather than 600.
process.env.RATE_LIMIT_PER_KEY = '25';
process.env.WEBHOOKS_ALLOW_LOOPBACK = 'true';
reloadConfig();

const service = useTestService();
let validator: ResponseValidator;
let receiver: Receiver;
const violations: string[] = [];

beforeAll(async () => {
  const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, unknown>;
  validator = responseValidator(doc);
  receiver = await startReceiver();
});
afterAll(async () => receiver?.close());

interface Call {
  status: number;
  headers: Headers;
  text: string;
  json: <T = Record<string, unknown>>() => T;
}

// The document's examples are the first JSON success of each operation and the first delivery of
// each event type met here (written with UPDATE_OPENAPI_EXAMPLES=1; always held to the document).
const EXAMPLES_FILE = new URL('../../../lambdas/api/openapi-examples.json', import.meta.url);
const recorded: OpenApiExamples = { operations: {}, events: {} };

/** Secrets and this machine's addresses out of an example, each kept in its shape. */
function redact(value: unknown, name = ''): unknown {
  if (typeof value === 'string') {
    if (/^svc_live_[A-Za-z0-9_-]{32}$/.test(value)) return `svc_live_${'EXAMPLEKEY0'.repeat(3).slice(0, 32)}`;
    if (name === 'secret' && /^[0-9a-f]+$/.test(value)) return '5'.repeat(value.length);
    return value.replace(/^http:\/\/127\.0\.0\.1:\d+/, 'https://hooks.example.com');
  }
  if (Array.isArray(value)) return value.map((v) => redact(v));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redact(v, k)]));
  return value;
}

function recordExample(method: string, path: string, requestBody: unknown, status: number, contentType: string, text: string) {
  const id = validator.operationIdOf(method, path);
  // The document itself is its own example of nothing.
  if (!id || id === 'getOpenApi' || recorded.operations[id] || status < 200 || status > 299 || !contentType.startsWith('application/json')) return;
  recorded.operations[id] = { ...(requestBody === undefined ? {} : { request: redact(requestBody) }), status: String(status), response: redact(JSON.parse(text)) };
}

/** One request, checked against the document; violations are collected and asserted per test. */
async function call(method: string, path: string, init: { key?: string | null; body?: unknown; headers?: Record<string, string>; raw?: RequestInit['body'] } = {}): Promise<Call> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization ??= `Bearer ${init.key ?? service.apiKey}`;
  let body: RequestInit['body'] = init.raw;
  if (init.body !== undefined) {
    body = typeof init.body === 'string' ? init.body : JSON.stringify(init.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(`${service.url}${path}`, { method, headers, body });
  const bytes = Buffer.from(await res.arrayBuffer());
  violations.push(...validator.check(method, path, { status: res.status, headers: res.headers, body: bytes }));
  const text = bytes.toString('utf8');
  const sentJson = init.body === undefined ? undefined : typeof init.body === 'string' ? parseOrUndefined(init.body) : init.body;
  recordExample(method, path, sentJson, res.status, res.headers.get('content-type') ?? '', text);
  return { status: res.status, headers: res.headers, text, json: <T,>() => JSON.parse(text) as T };
}

function parseOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function expectDocumented() {
  const found = violations.splice(0);
  expect(found).toEqual([]);
}

const numbers = (n: number, area = 212) => Array.from({ length: n }, (_, i) => `(${area}) 555-${String(1000 + i).padStart(4, '0')}`);

describe('every response matches the OpenAPI document', () => {
  it('meta: the document, liveness, readiness', async () => {
    expect((await call('GET', '/openapi.json', { key: null })).status).toBe(200);
    expect((await call('GET', '/health', { key: null })).status).toBe(200);
    expect((await call('GET', '/ready', { key: null })).status).toBe(200);
    expectDocumented();
  });

  it('credits and authentication failures', async () => {
    expect((await call('GET', '/api/v1/credits/balance')).status).toBe(200);
    expect((await call('GET', '/api/v1/credits/balance', { key: null })).status).toBe(401);
    expect((await call('GET', '/api/v1/credits/balance', { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    expect((await call('GET', '/api/v1/credits/balance', { key: 'svc_live_' + 'x'.repeat(32) })).status).toBe(401);
    expect((await call('POST', '/api/v2/contacts', { key: null, body: { phone: '2125550143' } })).status).toBe(401);
    expectDocumented();
  });

  it('contacts v1 and v2: create, replay, refusals, list and get', async () => {
    const { key } = await newCustomer({ name: 'Doc contacts', credits: 20 });
    const created = await call('POST', '/api/v2/contacts', { key, body: { phone: '2125550143', properties: { full_name: 'Ada Lovelace' } }, headers: { 'idempotency-key': 'doc-1' } });
    expect(created.status).toBe(201);
    const replay = await call('POST', '/api/v2/contacts', { key, body: { phone: '2125550143', properties: { full_name: 'Ada Lovelace' }, idempotency_key: 'doc-1' } });
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect((await call('POST', '/api/v1/contacts', { key, body: { phone: '2125550144', validation_tier: 'max' } })).status).toBe(201);
    expect((await call('POST', '/api/v1/contacts', { key, body: { phone: '2125550199', idempotency_key: 'doc-1' } })).status).toBe(409);
    expect((await call('POST', '/api/v2/contacts', { key, body: { phone: '2125550143', validation_teir: 'max' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/contacts', { key, body: { phone: 'call me' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/contacts', { key, body: '{"phone":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/contacts', { key, raw: 'phone=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } })).status).toBe(415);
    const { key: broke } = await newCustomer({ name: 'Doc broke', credits: 0 });
    expect((await call('POST', '/api/v2/contacts', { key: broke, body: { phone: '2125550143' } })).status).toBe(402);
    const id = created.json<{ id: string }>().id;
    for (const version of ['v1', 'v2']) {
      expect((await call('GET', `/api/${version}/contacts?limit=2`, { key })).status).toBe(200);
      expect((await call('GET', `/api/${version}/contacts?limit=0`, { key })).status).toBe(400);
      expect((await call('GET', `/api/${version}/contacts/${id}`, { key })).status).toBe(200);
      expect((await call('GET', `/api/${version}/contacts/00000000-0000-4000-8000-000000000000`, { key })).status).toBe(404);
      expect((await call('GET', `/api/${version}/contacts/not-a-uuid`, { key })).status).toBe(404);
    }
    expectDocumented();
  });

  it('uploads: JSON and multipart creates, processing, downloads and refusals', async () => {
    const { key } = await newCustomer({ name: 'Doc uploads', credits: 2_000, subscriptionActive: true });
    const json = await call('POST', '/api/v1/uploads', { key, body: { contacts: numbers(120).map((phone, i) => ({ phone, full_name: `Person ${i}` })), phone_column: 'phone', full_name_column: 'full_name' } });
    expect(json.status).toBe(200);
    const form = new FormData();
    form.append('phone_column', 'phone');
    form.append('file', new Blob([['phone', ...numbers(110, 415)].join('\n')], { type: 'text/csv' }), 'list.csv');
    const multipart = await call('POST', '/api/v1/uploads', { key, raw: form });
    expect(multipart.status).toBe(200);
    expect((await call('POST', '/api/v1/uploads', { key, body: { phone_numbers: numbers(5) } })).status).toBe(422);
    expect((await call('POST', '/api/v1/uploads', { key, body: { phone_numbers: numbers(100), valdation_tier: 'max' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/uploads', { key, raw: 'x', headers: { 'content-type': 'text/plain' } })).status).toBe(415);
    const { key: broke } = await newCustomer({ name: 'Doc broke uploads', credits: 10, subscriptionActive: true });
    expect((await call('POST', '/api/v1/uploads', { key: broke, body: { phone_numbers: numbers(100) } })).status).toBe(402);
    const { key: unsubscribed } = await newCustomer({ name: 'Doc unsubscribed', credits: 1_000 });
    expect((await call('POST', '/api/v1/uploads', { key: unsubscribed, body: { phone_numbers: numbers(100) } })).status).toBe(403);
    expect((await call('POST', '/api/v1/uploads/staging', { key: unsubscribed })).status).toBe(403);
    expect((await call('POST', '/api/v1/uploads/staging?format=json', { key })).status).toBe(200);
    expect((await call('POST', '/api/v1/uploads/staging?format=xml', { key })).status).toBe(400);

    const id = json.json<{ id: string }>().id;
    expect((await call('GET', `/api/v1/uploads/${id}/download/processed`, { key })).status).toBe(409);
    await service.runtime.settleWorkflows();
    expect((await call('GET', `/api/v1/uploads/${id}`, { key })).json<{ status: string }>().status).toBe('completed');
    expect((await call('GET', '/api/v1/uploads?limit=1', { key })).status).toBe(200);
    expect((await call('GET', '/api/v1/uploads?limit=500', { key })).status).toBe(400);
    expect((await call('GET', `/api/v1/uploads/${id}/download/original`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/uploads/${id}/download/processed`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/uploads/${id}/download/processed?statuses=${encodeURIComponent('1 - Likely Right-Party Answer,Unknown')}&sort=best_status`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/uploads/${id}/download/processed?statuses=Likely%20Answer`, { key })).status).toBe(400);
    expect((await call('GET', `/api/v1/uploads/${id}/download/processed-filtered`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/uploads/${multipart.json<{ id: string }>().id}`, { key })).status).toBe(200);
    expect((await call('GET', '/api/v1/uploads/00000000-0000-4000-8000-000000000000', { key })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/uploads/${id}`, { key })).status).toBe(410);
    expectDocumented();
  });

  it('webhooks: register (with its ping), read, update, deliveries, delete, refusals', async () => {
    const { key, org } = await newCustomer({ name: 'Doc webhooks', credits: 10 });
    const created = await call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, description: 'doc', events: ['upload.completed', 'contact.completed'] } });
    expect(created.status).toBe(201);
    const id = created.json<{ webhook: { id: string } }>().webhook.id;
    expect((await call('POST', '/api/v1/webhooks', { key, body: { url: 'http://example.com/hook' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, events: ['nope'] } })).status).toBe(400);
    expect((await call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url, secret: 'x' } })).status).toBe(400);
    expect((await call('POST', '/api/v1/webhooks', { key, body: { url: receiver.url } })).status).toBe(409); // one endpoint per URL
    receiver.mode = { kind: 'status', status: 500 };
    const pingFailed = await call('POST', '/api/v1/webhooks', { key, body: { url: `${receiver.url}?second` } });
    receiver.mode = { kind: 'status', status: 200 };
    expect(pingFailed.json<{ detail: { error: string } }>().detail.error).toBe('ping_failed');
    expect((await call('GET', '/api/v1/webhooks', { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/webhooks/${id}`, { key })).status).toBe(200);
    expect((await call('PATCH', `/api/v1/webhooks/${id}`, { key, body: { description: null, is_active: true } })).status).toBe(200);
    expect((await call('PATCH', `/api/v1/webhooks/${id}`, { key, body: { secret: 'x' } })).status).toBe(400);
    expect((await call('GET', `/api/v1/webhooks/${id}/deliveries?limit=5`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/webhooks/${id}/deliveries?cursor=forged`, { key })).status).toBe(400);
    // Redelivery (an extension): an event the receiver refused for good (410), sent again once it answers.
    const ping = (await call('GET', `/api/v1/webhooks/${id}/deliveries`, { key })).json<{ data: { id: string }[] }>().data[0]!.id;
    receiver.mode = { kind: 'status', status: 410 };
    await emitEvent(service.runtime.ports, { organizationId: org.id, type: 'upload.completed', data: { upload: { id: 'doc' } } });
    const refused = await waitFor('the refused delivery', async () => {
      const rows = (await call('GET', `/api/v1/webhooks/${id}/deliveries`, { key })).json<{ data: { id: string; state: string; event_type: string }[] }>().data;
      return rows.find((d) => d.event_type === 'upload.completed' && d.state === 'exhausted') ?? null;
    });
    receiver.mode = { kind: 'status', status: 200 };
    expect((await call('POST', `/api/v1/webhooks/${id}/deliveries/${refused.id}/redeliver`, { key })).status).toBe(202);
    expect((await call('POST', `/api/v1/webhooks/${id}/deliveries/${ping}/redeliver`, { key })).status).toBe(409);
    expect((await call('POST', `/api/v1/webhooks/${id}/deliveries/dlv_${'0'.repeat(32)}/redeliver`, { key })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/webhooks/${id}`, { key })).status).toBe(204);
    expect((await call('GET', `/api/v1/webhooks/${id}`, { key })).status).toBe(404);
    expect((await call('DELETE', `/api/v1/webhooks/${id}`, { key })).status).toBe(404);
    expectDocumented();
  });

  it('spam monitoring: add, verify, resend, read, screenshot, delete, refusals', async () => {
    const { key } = await newCustomer({ name: 'Doc spam', subscriptionActive: true });
    const added = await call('POST', '/api/v1/spam/numbers', { key, body: { phone_number: '+1 202 318 0300' } });
    expect(added.status).toBe(201);
    const number = added.json<{ number: { id: string; phone_number: string } }>().number;
    expect((await call('POST', '/api/v1/spam/numbers', { key, body: { phone_number: '+1 202 318 0300' } })).status).toBe(409);
    expect((await call('POST', '/api/v1/spam/numbers', { key, body: { phone_number: 'nope' } })).status).toBe(400);
    expect((await call('POST', `/api/v1/spam/numbers/${number.id}/verify/resend`, { key, body: {} })).status).toBe(429); // a code went out seconds ago
    expect((await call('POST', `/api/v1/spam/numbers/${number.id}/verify`, { key, body: { code: '000000x' } })).status).toBe(400);
    const [latest] = await admin.spamVerificationCodes(number.phone_number);
    expect((await call('POST', `/api/v1/spam/numbers/${number.id}/verify`, { key, body: { code: latest!.code } })).status).toBe(200);
    expect((await call('POST', `/api/v1/spam/numbers/${number.id}/verify/resend`, { key, body: {} })).status).toBe(400);
    expect((await call('GET', '/api/v1/spam/numbers', { key })).status).toBe(200);
    expect((await call('GET', '/api/v1/spam/numbers?limit=0', { key })).status).toBe(400);
    expect((await call('GET', `/api/v1/spam/numbers/${number.id}`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/spam/numbers/${number.id}/history`, { key })).status).toBe(200);
    expect((await call('GET', `/api/v1/spam/numbers/${number.id}/screenshot`, { key })).status).toBe(404);
    expect((await call('GET', `/api/v1/spam/numbers/${number.id}/screenshot?carrier=sprint`, { key })).status).toBe(400);
    expect((await call('POST', '/api/v1/spam/numbers/00000000-0000-4000-8000-000000000000/verify', { key, body: { code: '1' } })).status).toBe(404);
    const { key: unsubscribed } = await newCustomer({ name: 'Doc spam unsubscribed' });
    expect((await call('GET', '/api/v1/spam/numbers', { key: unsubscribed })).status).toBe(403);
    expect((await call('DELETE', `/api/v1/spam/numbers/${number.id}`, { key })).status).toBe(200);
    expectDocumented();
  });

  it('rate limits and bodies over the limit', async () => {
    const { key } = await newCustomer({ name: 'Doc limits', credits: 0 });
    // Until the limiter answers 429 (a burst's worth at a healthy pace; more when a loaded machine
    // lets tokens come back between requests), bounded so a limiter that never refuses fails.
    const statuses: number[] = [];
    while (statuses.at(-1) !== 429 && statuses.length < 300) statuses.push((await call('POST', '/api/v1/contacts', { key, body: {} })).status);
    expect(statuses.at(-1)).toBe(429);
    const { key: other } = await newCustomer({ name: 'Doc too large', credits: 0 });
    const tooLarge = await call('POST', '/api/v1/contacts', { key: other, raw: Buffer.alloc(11 * 1024 * 1024, 0x20), headers: { 'content-type': 'application/json' } });
    expect(tooLarge.status).toBe(413);
    expectDocumented();
  });

  it('every delivered event matches its entry of the webhooks section', async () => {
    const { key } = await newCustomer({ name: 'Doc events', credits: 1_000, subscriptionActive: true });
    const events = await startReceiver();
    try {
      const all = ['upload.created', 'upload.completed', 'upload.failed', 'contact.completed', 'contact.failed', 'spam.detected', 'number.verified'];
      expect((await call('POST', '/api/v1/webhooks', { key, body: { url: events.url, events: all } })).status).toBe(201);
      expect((await call('POST', '/api/v1/uploads', { key, body: { phone_numbers: numbers(100, 646) } })).status).toBe(200);
      expect((await call('POST', '/api/v2/contacts', { key, body: { phone: '6465550143', properties: { full_name: 'Ada Lovelace' } } })).status).toBe(201);
      expect((await call('POST', '/api/v2/contacts', { key, body: { phone: '6465550144' } })).status).toBe(201);
      await runContactPool(service.runtime.ports);
      await service.runtime.settleWorkflows();
      const added = await call('POST', '/api/v1/spam/numbers', { key, body: { phone_number: '+1 202 318 0301' } });
      const number = added.json<{ number: { id: string; phone_number: string } }>().number;
      const [latest] = await admin.spamVerificationCodes(number.phone_number);
      expect((await call('POST', `/api/v1/spam/numbers/${number.id}/verify`, { key, body: { code: latest!.code } })).status).toBe(200);
      expectDocumented();

      // webhook.ping, upload.created, upload.completed, two contact.completed, number.verified.
      const expected = ['webhook.ping', 'upload.created', 'upload.completed', 'contact.completed', 'number.verified'];
      const types = () => new Set(events.requests.map((r) => (JSON.parse(r.body) as { type: string }).type));
      while (!expected.every((t) => types().has(t)) || events.requests.length < 6) await events.waitFor(events.requests.length + 1);
      const problems = events.requests.flatMap((r) => validator.checkEvent(r.body));
      expect(problems).toEqual([]);
      for (const r of events.requests) {
        const event = JSON.parse(r.body) as { type: string };
        recorded.events[event.type] ??= redact(event);
      }
      expect([...types()].sort()).toEqual([...expected].sort());
    } finally {
      await events.close();
    }
  });

  it('covered every operation of the document', async () => {
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const all = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const covered = new Set([...validator.seen].map((s) => s.split(' ').slice(0, 2).join(' ')));
    expect(all.filter((operation) => !covered.has(operation))).toEqual([]);
  });

  it("the document's examples are real answers it describes: one per operation with a JSON success, one per event delivered here", async () => {
    if (process.env.UPDATE_OPENAPI_EXAMPLES) writeFileSync(EXAMPLES_FILE, `${JSON.stringify(recorded, null, 2)}\n`);
    const stored = JSON.parse(readFileSync(EXAMPLES_FILE, 'utf8')) as OpenApiExamples;
    const problems = [
      ...Object.entries(stored.operations).flatMap(([id, example]) => validator.checkExample(id, example)),
      ...Object.values(stored.events).flatMap((event) => validator.checkEvent(JSON.stringify(event))),
    ];
    expect(problems).toEqual([]);
    // Every operation this file met with a JSON success has its example, and so has every event type it met.
    expect(Object.keys(recorded.operations).filter((id) => !stored.operations[id])).toEqual([]);
    expect(Object.keys(recorded.events).filter((type) => !(type in stored.events))).toEqual([]);
    // And the served document carries them.
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, { operationId: string; responses: Record<string, { content?: Record<string, { example?: unknown }> }> }>> };
    const served = Object.values(doc.paths).flatMap((byMethod) => Object.values(byMethod)).filter((o) => stored.operations[o.operationId]);
    expect(served.filter((o) => o.responses[stored.operations[o.operationId]!.status]?.content?.['application/json']?.example === undefined).map((o) => o.operationId)).toEqual([]);
  });
});
