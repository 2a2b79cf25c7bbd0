import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../../lambdas/admin/admin';
import { SYNTH_WAIT_MS } from './assembly';
import { startDeployedStack, RECEIVER_HOST, type DeployedStack } from './deployed-stack';
import { evaluateCalls } from './iam';
import { verifyWebhook } from '../../lambdas/webhooks/verify-signature';

/**
 * The deployed artifacts walked through the main flows: every request goes through the HTTP API
 * built from the template to the bundles synthesized into cdk.out, each running alone in a Node 22
 * child with its template environment; workflows run the synthesized state machine; scheduled
 * jobs and the SQS consumer get the events AWS would send. Every AWS call is recorded and checked
 * against the calling function's IAM policies at the end, DynamoDB calls down to their partition
 * keys (dynamodb:LeadingKeys).
 */
describe('deployed artifacts: the main flows', () => {
  let stack: DeployedStack;
  let key = '';
  let orgId = '';
  let ownerId = '';

  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const init: RequestInit = { method, headers: { authorization: `Bearer ${key}`, ...headers } };
    if (body instanceof FormData) init.body = body;
    else if (body !== undefined) {
      init.body = JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] = 'application/json';
    }
    return fetch(`${stack.api}${path}`, init);
  };
  const json = async <T>(response: Response, status: number): Promise<T> => {
    const text = await response.text();
    expect(response.status, text).toBe(status);
    return JSON.parse(text) as T;
  };
  const csvOf = (count: number, first: number) => ['phone,first_name', ...Array.from({ length: count }, (_, i) => `212-555-${String(first + i).padStart(4, '0')},N${i}`)].join('\n');

  beforeAll(async () => {
    stack = await startDeployedStack();
    const org = await admin.createOrganization({ name: 'Deployed walk', subscriptionActive: true, credits: 5000 });
    const user = await admin.createUser('walk@example.com');
    await admin.addMember(org.id, user.id, 'owner');
    key = (await admin.mintKey(org.id, user.id)).key;
    orgId = org.id;
    ownerId = user.id;
  }, SYNTH_WAIT_MS);

  afterAll(async () => {
    await stack?.stop();
  });

  it('serves unauthenticated and unknown routes from the template ($default to the platform function)', async () => {
    const openapi = await fetch(`${stack.api}/openapi.json`);
    expect(openapi.status).toBe(200);
    const missing = await fetch(`${stack.api}/api/v1/nothing-here`, { headers: { authorization: `Bearer ${key}` } });
    expect(missing.status).toBe(404);
    expect(await missing.json()).toHaveProperty('detail');
  });

  it('creates a multipart upload (binary body base64 encoded by API Gateway), processes it to completion, and hands out a working download link', async () => {
    const form = new FormData();
    form.append('file', new Blob([csvOf(150, 1000)], { type: 'text/csv' }), 'walk.csv');
    form.append('phone_columns', 'phone');
    const created = await json<{ id: string; credits_charged: number }>(await call('POST', '/api/v1/uploads', form), 200);
    expect(created.credits_charged).toBe(150);
    await stack.settleWorkflows();
    const upload = await json<{ status: string }>(await call('GET', `/api/v1/uploads/${created.id}`), 200);
    expect(upload.status).toBe('completed');
    const link = await json<{ url: string }>(await call('GET', `/api/v1/uploads/${created.id}/download/processed`), 200);
    const file = await fetch(link.url);
    expect(file.status).toBe(200);
    const text = await file.text();
    expect(text.split('\n')[0]).toMatch(/phone/);
    expect(text).toContain('212-555-1000');
  });

  it('creates an upload from a staged file (presigned POST) and processes it', async () => {
    const staged = await json<{ staged_upload_id: string; url: string; fields: Record<string, string> }>(await call('POST', '/api/v1/uploads/staging'), 200);
    const form = new FormData();
    for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
    form.append('file', new Blob([csvOf(120, 3000)], { type: 'text/csv' }), 'staged.csv');
    const posted = await fetch(staged.url, { method: 'POST', body: form });
    expect(posted.status, await posted.text()).toBeLessThan(300);
    const created = await json<{ id: string; valid_number_count: number }>(await call('POST', '/api/v1/uploads', { staged_upload_id: staged.staged_upload_id, phone_column: 'phone', filename: 'staged.csv' }), 200);
    expect(created.valid_number_count).toBe(120);
    await stack.settleWorkflows();
    expect((await json<{ status: string }>(await call('GET', `/api/v1/uploads/${created.id}`), 200)).status).toBe('completed');
  });

  it('creates an upload from a staged JSON body (?format=json)', async () => {
    const staged = await json<{ staged_upload_id: string; format: string; url: string; fields: Record<string, string> }>(await call('POST', '/api/v1/uploads/staging?format=json'), 200);
    expect(staged.format).toBe('json');
    const form = new FormData();
    for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
    const phone_numbers = Array.from({ length: 110 }, (_, i) => `+1212555${String(5000 + i)}`);
    form.append('file', new Blob([JSON.stringify({ phone_numbers })], { type: 'application/json' }), 'numbers.json');
    expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
    const created = await json<{ id: string; valid_number_count: number }>(await call('POST', '/api/v1/uploads', { staged_upload_id: staged.staged_upload_id }), 200);
    expect(created.valid_number_count).toBe(110);
    await stack.settleWorkflows();
    expect((await json<{ status: string }>(await call('GET', `/api/v1/uploads/${created.id}`), 200)).status).toBe('completed');
  });

  it('registers a webhook (ping), pools contacts on the schedule, completes them, and delivers upload events with one retry', async () => {
    const hook = await json<{ webhook: { id: string }; secret: string }>(await call('POST', '/api/v1/webhooks', { url: `https://${RECEIVER_HOST}/events`, events: ['contact.completed'] }), 201);
    expect(stack.receiver.received.some((r) => r.body.includes('webhook.ping'))).toBe(true);

    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const contact = await json<{ id: string; status: string }>(await call('POST', '/api/v2/contacts', { phone: `(212) 555-0${140 + i}`, validation_tier: 'standard' }), 201);
      ids.push(contact.id);
    }
    // EventBridge Scheduler's invocation of the pool job.
    await stack.runSchedule('ContactsPoolJob');
    await stack.settleWorkflows();
    for (const id of ids) expect((await json<{ status: string }>(await call('GET', `/api/v2/contacts/${id}`), 200)).status).toBe('completed');

    // The receiver fails the first attempt; the SQS consumer records it and re-enqueues for 1 minute later.
    const before = stack.receiver.received.length;
    stack.receiver.answers.push(500);
    await stack.drainQueue();
    const firstAttempts = stack.receiver.received.length - before;
    expect(firstAttempts).toBeGreaterThanOrEqual(3);
    // A minute passes for the consumer; the re-enqueued message is delivered again.
    await stack.advanceClock(61_000);
    await stack.drainQueue();
    const log = await json<{ data: Record<string, unknown>[] }>(await call('GET', `/api/v1/webhooks/${hook.webhook.id}/deliveries`), 200);
    const deliveries = log.data.filter((d) => JSON.stringify(d).includes('contact.completed')) as { state: string; attempts: unknown[] }[];
    expect(deliveries.length, JSON.stringify(log.data)).toBe(3);
    expect(deliveries.every((d) => d.state === 'succeeded'), JSON.stringify(deliveries)).toBe(true);
    // One delivery failed once (500) and succeeded on its retry a minute later; none was sent again after success.
    expect(deliveries.map((d) => d.attempts.length).sort()).toEqual([1, 1, 2]);
    expect(stack.receiver.received.length - before).toBe(4);
    // Signed with the secret the API showed once: the consumer opened the sealed copy (KMS Decrypt).
    for (const r of stack.receiver.received.slice(before)) {
      expect(verifyWebhook(r.body, String(r.headers['x-service-signature']), hook.secret, { toleranceSeconds: 3600 })).toMatchObject({ type: 'contact.completed' });
    }
  });

  it('adds and verifies a spam-monitored number and runs the daily tests on the schedule', async () => {
    const add = await json<{ number: { id: string; phone_number: string } }>(await call('POST', '/api/v1/spam/numbers', { phone_number: '+12023180204' }), 201);
    const [code] = await admin.spamVerificationCodes(add.number.phone_number);
    await json(await call('POST', `/api/v1/spam/numbers/${add.number.id}/verify`, { code: code!.code }), 200);
    // The schedule plans and queues one item per carrier; the test consumer takes them from the queue.
    await stack.runSchedule('SpamDailyRun');
    expect(stack.queues.filter((m) => /spamtestqueue/i.test(m.queueUrl)).length).toBe(3);
    await stack.drainQueue();
    const history = await json<{ results: { carrier: string; status: string }[] }>(await call('GET', `/api/v1/spam/numbers/${add.number.id}/history`), 200);
    expect(history.results.map((r) => `${r.carrier}:${r.status}`).sort()).toEqual(['at&t:completed', 't-mobile:completed', 'verizon:completed']);
  });

  it('answers the balance, and the workflow failure task leaves a completed upload alone', async () => {
    const balance = await json<{ total: number }>(await call('GET', '/api/v1/credits/balance'), 200);
    expect(balance.total).toBe((await admin.showBalance(orgId)).total);
    const [first] = (await json<{ data: { id: string; status: string }[] }>(await call('GET', '/api/v1/uploads?limit=1'), 200)).data;
    // The MarkFailed task's input as the Catch builds it; a late failure must not fail a completed upload.
    await stack.fn('UploadsFail').invoke({ upload_id: first!.id, error: { Error: 'States.TaskFailed', Cause: 'late' } });
    expect((await json<{ status: string }>(await call('GET', `/api/v1/uploads/${first!.id}`), 200)).status).toBe('completed');
    // The shipped ClassifyChunk answers the loop's Choice: a chunk whose result exists is done and is not classified again.
    expect(await stack.fn('UploadsClassifyChunk').invoke({ upload_id: first!.id, chunk: 0 })).toMatchObject({ upload_id: first!.id, chunk: 0, done: true });
  });

  it('runs the other scheduled jobs (billing period, webhook sweeper, recovery) from their schedules', async () => {
    await stack.runSchedule('BillingBillingPeriodJob');
    await stack.runSchedule('WebhooksDeliverySweeper');
    await stack.runSchedule('RecoveryJob');
    expect((await admin.showBalance(orgId)).total).toBeGreaterThan(0);
  });

  it('serves the console API behind the template’s JWT authorizer: a signed-in owner, never an API key or a foreign token', async () => {
    const consoleCall = (path: string, token: string | null, init: RequestInit = {}) =>
      fetch(`${stack.api}${path}`, { ...init, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json' } });
    const token = await stack.consoleToken(ownerId);
    const me = await json<{ organization: { id: string }; role: string }>(await consoleCall('/console/api/me', token), 200);
    expect(me.organization.id).toBe(orgId);
    expect(me.role).toBe('owner');
    const minted = await json<{ key: string }>(await consoleCall('/console/api/keys', token, { method: 'POST', body: JSON.stringify({}) }), 200);
    expect(minted.key).toMatch(/^svc_live_/);
    // The in-app upload flow through the deployed console function: the draft's file, its
    // validation report and kept plan live under web-drafts/, then confirmation creates the upload.
    const started = await json<{ draft: { id: string; status: string } }>(
      await fetch(`${stack.api}/console/api/uploads?filename=walk-web.csv`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' }, body: csvOf(120, 6000) }),
      200,
    );
    expect(started.draft.status).toBe('pending_mapping');
    const mapped = await json<{ draft: { status: string; total_rows: number; validated_rows: number } }>(
      await consoleCall(`/console/api/uploads/${started.draft.id}/mapping`, token, { method: 'POST', body: JSON.stringify({ phone_columns: ['phone'] }) }),
      200,
    );
    expect(mapped.draft).toMatchObject({ status: 'awaiting_confirmation', total_rows: 120, validated_rows: 120 });
    expect((await json<{ url: string }>(await consoleCall(`/console/api/uploads/${started.draft.id}/report`, token), 200)).url).toContain('web-drafts/');
    const confirmed = await json<{ upload: { id: string; source: string } }>(
      await consoleCall(`/console/api/uploads/${started.draft.id}/confirm`, token, { method: 'POST', body: JSON.stringify({ validation_tier: 'standard', expected_credits: 120 }) }),
      200,
    );
    expect(confirmed.upload).toMatchObject({ id: started.draft.id, source: 'web' });
    // The authorizer answers before the function: no token, an API key, another issuer, another client, an expired token.
    for (const bad of [null, key, await stack.consoleToken(ownerId, { iss: 'https://cognito-idp.us-east-1.amazonaws.com/us-east-1_other' }), await stack.consoleToken(ownerId, { client_id: 'another-client' }), await stack.consoleToken(ownerId, { exp: 1_000 })]) {
      const refused = await consoleCall('/console/api/me', bad);
      expect(refused.status).toBe(401);
      expect(await refused.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('made only AWS calls each function’s IAM policies allow', () => {
    expect(stack.endpoint.unknown).toEqual([]);
    // Every DynamoDB call's partition keys were read (an unread request shape records `?`, which no grant allows).
    const dynamo = stack.endpoint.calls.filter((c) => c.service === 'dynamodb');
    expect(dynamo.filter((c) => !c.leadingKeys?.length || c.leadingKeys.includes('?'))).toEqual([]);
    expect(new Set(dynamo.map((c) => c.action)).size).toBeGreaterThanOrEqual(5);
    const { denied, used } = evaluateCalls(stack.assembly.template, stack.resolver, stack.endpoint.calls);
    expect(denied).toEqual([]);
    // Every deployed function answered at least one real-shaped event in the walk.
    expect([...stack.functions.entries()].filter(([, f]) => f.invocations === 0).map(([id]) => id)).toEqual([]);
    expect(used.size).toBeGreaterThan(0);
    // Signing secrets: sealed by the API that created them, opened only by the consumer that signed.
    const kms = [...new Set(stack.endpoint.calls.filter((c) => c.service === 'kms').map((c) => `${c.fn.replace(/[0-9A-F]{8}$/, '')} ${c.action}`))].sort();
    expect(kms).toEqual(['ApiWebhooksFunction kms:Encrypt', 'WebhooksDeliveryConsumer kms:Decrypt']);
  });
});
