import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hundredNumbers } from '../support/phone-inputs';
import { crashThenRestart as crashThenRestartIn, eventTypes, newDataDir, startChild, waitFor, type Child } from './harness';
import { scaled } from '../support/wait';

// kill -9 at named points of create, processing and delivery (lambdas/platform/crash-point.ts),
// then a restart on the same data folder: every upload and contact ends terminal, with its event,
// and credits are conserved exactly (docs/reliability.md lists the points and what recovers each).

const TERMINAL = new Set(['completed', 'failed']);
/** Two child runtimes start per test, and recovery then pools and processes: on a loaded 2-core machine that can take minutes. */
const CHILD_TEST_MS = scaled(300_000);
const children: Child[] = [];
afterEach(async () => {
  while (children.length) await children.pop()!.stop();
});

const crashThenRestart = (point: string, act: (c: Child) => Promise<unknown>): Promise<Child> => crashThenRestartIn(point, act, children);

async function balance(c: Child): Promise<number> {
  return ((await (await c.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;
}

describe('uploads survive kill -9 at every step', () => {
  for (const point of ['credits.before-ledger:debit', 'upload.after-charge', 'upload.after-ready', 'pipeline.after-start', 'pipeline.before-complete', 'pipeline.after-complete']) {
    it(`killed at ${point}: the upload completes once, charged once, announced`, async () => {
      const c = await crashThenRestart(point, (child) => child.request('POST', '/api/v1/uploads', { phone_numbers: hundredNumbers() }));
      const uploads = await waitFor('every upload terminal', async () => {
        const page = (await (await c.request('GET', '/api/v1/uploads')).json()) as { data: { id: string; status: string; credits_charged: number; credits_refunded: number | null }[] };
        return page.data.every((u) => TERMINAL.has(u.status)) ? page.data : null;
      });
      expect(uploads).toHaveLength(1);
      const [upload] = uploads;
      expect(upload).toMatchObject({ status: 'completed', credits_charged: 100 });
      // Credits conserved: what left the balance is exactly what the uploads were charged, less refunds.
      expect(await balance(c)).toBe(1000 - (upload!.credits_charged - (upload!.credits_refunded ?? 0)));
      expect(await waitFor('events published', async () => ((await eventTypes(c)).length === 2 ? eventTypes(c) : null))).toEqual(['upload.completed', 'upload.created']);
    }, CHILD_TEST_MS);
  }
});

describe('an upload refused for credits leaves nothing, killed between its files and its record', () => {
  it('killed at upload.after-discard-files: the restart removes the record, no file is left, nothing charged', async () => {
    const refused = Array.from({ length: 1100 }, (_, i) => `+1212555${String(i).padStart(4, '0')}`);
    const c = await crashThenRestart('upload.after-discard-files', (child) => child.request('POST', '/api/v1/uploads', { phone_numbers: refused }));
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: c.dynamo, region: 'us-east-1', credentials: c.credentials }));
    const uploadItems = async () => (await client.send(new ScanCommand({ TableName: 'phone-validation', FilterExpression: 'entity = :u', ExpressionAttributeValues: { ':u': 'Upload' } }))).Items ?? [];
    expect(await waitFor('the charging record removed', async () => ((await uploadItems()).length === 0 ? true : null))).toBe(true);
    client.destroy();
    const files = join(c.dataDir, 's3', 'phone-validation-files', 'uploads');
    const left = existsSync(files) ? readdirSync(files, { recursive: true }).map(String).filter((f) => f.endsWith('._S3rver_object')) : [];
    expect(left).toEqual([]);
    expect(await balance(c)).toBe(1000);
  }, CHILD_TEST_MS);
});

describe('a create from a staged file, killed before it deleted the file', () => {
  it('killed at upload.after-staged-create: the upload completes once, charged once; a retry is a 409; the file is left to the staging expiry', async () => {
    let stagedId = '';
    const c = await crashThenRestart('upload.after-staged-create', async (child) => {
      const staged = (await (await child.request('POST', '/api/v1/uploads/staging')).json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
      stagedId = staged.staged_upload_id;
      const form = new FormData();
      for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
      form.append('file', new Blob([['phone', ...hundredNumbers()].join('\n')], { type: 'text/csv' }), 'staged.csv');
      expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
      return child.request('POST', '/api/v1/uploads', { staged_upload_id: stagedId, phone_column: 'phone' });
    });
    const uploads = await waitFor('the upload terminal', async () => {
      const page = (await (await c.request('GET', '/api/v1/uploads')).json()) as { data: { id: string; status: string; credits_charged: number }[] };
      return page.data.length === 1 && TERMINAL.has(page.data[0]!.status) ? page.data : null;
    });
    expect(uploads[0]).toMatchObject({ status: 'completed', credits_charged: 100 });
    expect(await balance(c)).toBe(900);
    const again = await c.request('POST', '/api/v1/uploads', { staged_upload_id: stagedId, phone_column: 'phone' });
    expect(again.status).toBe(409);
    // Not deleted by the killed create: the embedded store's stand-in for the lifecycle rule removes it two days after staging.
    expect(existsSync(join(c.dataDir, 's3', 'phone-validation-files', 'staging', c.organizationId, `${stagedId}.csv._S3rver_object`))).toBe(true);
    expect(await balance(c)).toBe(900);
  }, CHILD_TEST_MS);
});

/** The change ids marked in flight on the organization's balance item. */
async function inflightMarks(c: Child): Promise<string[]> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: c.dynamo, region: 'us-east-1', credentials: c.credentials }));
  const out = await client.send(new GetCommand({ TableName: 'phone-validation', Key: { pk: `ORG#${c.organizationId}`, sk: 'BALANCE' } }));
  client.destroy();
  return Object.keys((out.Item?.inflight as Record<string, unknown> | undefined) ?? {});
}

describe('contacts survive kill -9 at every step', () => {
  // credits.before-clear:debit: the charge is in the ledger, its in-flight mark not yet cleared.
  // A max create has a durable record (its claim, implicit without an idempotency key): killed anywhere, it completes.
  for (const point of ['credits.before-clear:debit', 'contact.after-debit', 'contact.after-queued', 'contact.after-completed']) {
    it(`killed at ${point}: the contact is charged once and completes, with its event`, async () => {
      // Past create, the child's pool (every 300 ms) takes the contact and the crash comes in processing.
      const c = await crashThenRestart(point, (child) => child.request('POST', '/api/v2/contacts', { phone: '+12125550123', validation_tier: 'max' }));
      const contacts = await waitFor('the contact completed', async () => {
        const page = (await (await c.request('GET', '/api/v2/contacts')).json()) as { data: { status: string; credits_charged: number }[] };
        return page.data.length === 1 && page.data[0]!.status === 'completed' ? page.data : null;
      });
      expect(contacts[0]).toMatchObject({ status: 'completed', credits_charged: 2 });
      expect(await balance(c)).toBe(998);
      // Nothing is left marked as under way on the balance.
      expect(await inflightMarks(c)).toEqual([]);
      expect(await waitFor('contact.completed published', async () => ((await eventTypes(c)).includes('contact.completed') ? eventTypes(c) : null))).toContain('contact.completed');
    }, CHILD_TEST_MS);
  }

  // A standard create without an idempotency key has no durable record before its write (that is
  // what makes it 2 calls): killed between the charge and the write, it is given back whole (the
  // client saw no answer and cannot ask for that contact; finishing it would only make its retry a
  // second, paid contact). With a key it completes, like a max create.
  it('killed at contact.after-debit, standard, without an idempotency key: no contact, nothing charged, nothing marked', async () => {
    const c = await crashThenRestart('contact.after-debit', (child) => child.request('POST', '/api/v2/contacts', { phone: '+12125550123' }));
    expect(await waitFor('the charge given back', async () => ((await balance(c)) === 1000 ? true : null))).toBe(true);
    const page = (await (await c.request('GET', '/api/v2/contacts')).json()) as { data: unknown[] };
    expect(page.data).toEqual([]);
    expect(await inflightMarks(c)).toEqual([]);
  }, CHILD_TEST_MS);

  it('killed at contact.after-debit, standard, with an idempotency key: the contact is charged once and completes', async () => {
    const c = await crashThenRestart('contact.after-debit', (child) => child.request('POST', '/api/v2/contacts', { phone: '+12125550123', idempotency_key: 'crash-standard' }));
    const contacts = await waitFor('the contact completed', async () => {
      const page = (await (await c.request('GET', '/api/v2/contacts')).json()) as { data: { id: string; status: string; credits_charged: number }[] };
      return page.data.length === 1 && page.data[0]!.status === 'completed' ? page.data : null;
    });
    expect(contacts[0]).toMatchObject({ status: 'completed', credits_charged: 1 });
    expect(await balance(c)).toBe(999);
    expect(await inflightMarks(c)).toEqual([]);
    // The same key again: the same contact, nothing more charged.
    const again = await c.request('POST', '/api/v2/contacts', { phone: '+12125550123', idempotency_key: 'crash-standard' });
    expect(again.status).toBe(201);
    expect(((await again.json()) as { id: string }).id).toBe(contacts[0]!.id);
    expect(await balance(c)).toBe(999);
  }, CHILD_TEST_MS);
});

describe('a pool run killed after it closed a max batch, before it moved the batch', () => {
  it('killed at pool.after-close: every max contact completes once at the price of its place, the next batch starts at 2, credits conserved', async () => {
    type Listed = { id: string; status: string; credits_charged: number; created_at: string };
    const list = async (c: Child) => ((await (await c.request('GET', '/api/v2/contacts?limit=100')).json()) as { data: Listed[] }).data;
    // Sent together, so the batch the run closes holds them (the child pools every 300 ms); any
    // request the kill cuts short is one of create's own crash points, recovered as those are.
    const c = await crashThenRestart('pool.after-close', (child) =>
      Promise.all(['+12125550131', '+12125550132', '+12125550133'].map((phone) => child.request('POST', '/api/v2/contacts', { phone, validation_tier: 'max' }))),
    );
    const stranded = await waitFor('the stranded batch completed', async () => {
      const all = await list(c);
      return all.length > 0 && all.every((x) => TERMINAL.has(x.status)) ? all : null;
    });
    expect(stranded.every((x) => x.status === 'completed')).toBe(true);
    // Their places: 2, 1, 2 (sent together, their records' times need not follow the charges' order).
    const charged = stranded.map((x) => x.credits_charged).sort();
    expect(charged).toEqual([2, 1, 2].slice(0, charged.length).sort());
    // The restart's recovery recorded and cleared their charges' marks.
    expect(await inflightMarks(c)).toEqual([]);
    // The batch after the one the killed run closed starts at place 1 again: 2, then 1.
    const next: Listed[] = [];
    for (const phone of ['+12125550134', '+12125550135']) next.push((await (await c.request('POST', '/api/v2/contacts', { phone, validation_tier: 'max' })).json()) as Listed);
    expect(next.map((x) => x.credits_charged)).toEqual([2, 1]);
    const all = await waitFor('every contact completed', async () => {
      const listed = await list(c);
      return listed.length === stranded.length + 2 && listed.every((x) => x.status === 'completed') ? listed : null;
    });
    expect(await balance(c)).toBe(1000 - all.reduce((sum, x) => sum + x.credits_charged, 0));
    // A live create's mark is cleared by the next charge's write or by the recovery job (hourly in
    // these children): only the last new contact's may remain.
    expect(next.map((x) => `contact:${x.id}`)).toEqual(expect.arrayContaining(await inflightMarks(c)));
    const completedEvents = await waitFor('one contact.completed each', async () => {
      const n = (await eventTypes(c)).filter((t) => t === 'contact.completed').length;
      return n >= all.length ? n : null;
    });
    expect(completedEvents).toBe(all.length);
  }, CHILD_TEST_MS);
});

describe('a pool whose provider fails some numbers survives kill -9 after their list is written', () => {
  it('killed at pipeline.after-lookup-failures: the failed contact is refunded once, the others complete, charged once', async () => {
    // A Twilio Lookup stand-in: one number fails on every try, the others are mobile lines.
    const failing = '+13125550171';
    const lookup = createServer((req, res) => {
      const e164 = decodeURIComponent(new URL(req.url ?? '/', 'http://fake').pathname.split('/').pop() ?? '');
      if (e164 === failing) return void res.writeHead(500, { 'content-type': 'application/json' }).end('{"code":20500,"status":500}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ phone_number: e164, valid: true, line_type_intelligence: { type: 'mobile', carrier_name: 'Verizon Wireless', error_code: null } }));
    });
    await new Promise<void>((r) => lookup.listen(0, '127.0.0.1', r));
    try {
      const env = { CLASSIFICATION_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: 'secret', TWILIO_ATTEMPTS: '2', TWILIO_LOOKUP_BASE_URL: `http://127.0.0.1:${(lookup.address() as AddressInfo).port}` };
      const phones = [failing, '+13125550172', '+13125550173'];
      const c = await crashThenRestartIn(
        'pipeline.after-lookup-failures',
        async (child) => {
          for (const phone of phones) await child.request('POST', '/api/v2/contacts', { phone });
        },
        children,
        env,
      );
      const contacts = await waitFor('every contact terminal', async () => {
        const page = (await (await c.request('GET', '/api/v2/contacts')).json()) as { data: { phone: string; status: string; credits_charged: number }[] };
        return page.data.length === 3 && page.data.every((x) => TERMINAL.has(x.status)) ? page.data : null;
      });
      expect(Object.fromEntries(contacts.map((x) => [x.phone, x.status]))).toEqual({ [failing]: 'failed', '+13125550172': 'completed', '+13125550173': 'completed' });
      // Charged 3, the failed one given back once: 2 left the balance.
      expect(await waitFor('the refund', async () => ((await balance(c)) === 998 ? true : null))).toBe(true);
      expect(await inflightMarks(c)).toEqual([]);
    } finally {
      await new Promise<void>((r) => lookup.close(() => r()));
    }
  }, CHILD_TEST_MS);
});

describe('spam monitoring survives kill -9 while a number is added or deleted', () => {
  /** The organization's slot counter as stored: the count and the slots held by name. */
  async function slotCounter(c: Child): Promise<{ count: number; slots: string[] }> {
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: c.dynamo, region: 'us-east-1', credentials: c.credentials }));
    const out = await client.send(new GetCommand({ TableName: 'phone-validation', Key: { pk: `ORG#${c.organizationId}`, sk: 'SPAMNUMS#COUNT' } }));
    client.destroy();
    return { count: Number(out.Item?.count ?? 0), slots: Object.keys(out.Item ?? {}).filter((k) => k.startsWith('slot_')) };
  }
  const numbers = async (c: Child) => ((await (await c.request('GET', '/api/v1/spam/numbers')).json()) as { numbers: { phone_number: string }[] }).numbers.map((n) => n.phone_number);

  for (const point of ['spam.after-slot', 'spam.after-phone']) {
    it(`killed at ${point} while adding: the restart gives back the phone and the slot`, async () => {
      const c = await crashThenRestart(point, (child) => child.request('POST', '/api/v1/spam/numbers', { phone_number: '+12023181102' }));
      expect(await numbers(c)).toEqual([]);
      expect(await slotCounter(c)).toEqual({ count: 0, slots: [] });
      // The phone is free again, and the slot counted once.
      expect((await c.request('POST', '/api/v1/spam/numbers', { phone_number: '+12023181102' })).status).toBe(201);
      expect(await numbers(c)).toEqual(['+12023181102']);
      expect((await slotCounter(c)).count).toBe(1);
    }, CHILD_TEST_MS);
  }

  it('killed at spam.after-number while adding, before the slot left the counter: the restart settles it, still counted', async () => {
    const c = await crashThenRestart('spam.after-number', (child) => child.request('POST', '/api/v1/spam/numbers', { phone_number: '+12023181103' }));
    expect(await numbers(c)).toEqual(['+12023181103']);
    expect(await slotCounter(c)).toEqual({ count: 1, slots: [] });
    expect((await c.request('POST', '/api/v1/spam/numbers', { phone_number: '+12023181103' })).status).toBe(409);
  }, CHILD_TEST_MS);

  /** Adds `phone`, then deletes it in a process killed at `point`; the restarted process and the number's id. */
  async function killedWhileDeleting(point: string, phone: string): Promise<{ c: Child; id: string }> {
    const dataDir = newDataDir();
    const first = await startChild(dataDir, { FAULT_CRASH_AT: point });
    children.push(first);
    const added = await first.request('POST', '/api/v1/spam/numbers', { phone_number: phone });
    expect(added.status).toBe(201);
    const id = ((await added.json()) as { number: { id: string } }).number.id;
    await first.request('DELETE', `/api/v1/spam/numbers/${id}`).catch(() => undefined);
    expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
    const c = await startChild(dataDir);
    children.push(c);
    return { c, id };
  }

  it('killed at spam.after-delete-marked: the number stays, counted once; another delete within 5 minutes is told one is under way', async () => {
    const { c, id } = await killedWhileDeleting('spam.after-delete-marked', '+12023181650');
    expect(await numbers(c)).toEqual(['+12023181650']);
    expect(await slotCounter(c)).toEqual({ count: 1, slots: [] });
    expect((await c.request('DELETE', `/api/v1/spam/numbers/${id}`)).status).toBe(409);
  }, CHILD_TEST_MS);

  it('killed after the number is deleted, before its phone and slot: the restart gives both back', async () => {
    const { c } = await killedWhileDeleting('spam.after-number-deleted', '+12023181649');
    expect(await numbers(c)).toEqual([]);
    expect(await slotCounter(c)).toEqual({ count: 0, slots: [] });
    expect((await c.request('POST', '/api/v1/spam/numbers', { phone_number: '+12023181649' })).status).toBe(201);
  }, CHILD_TEST_MS);
});

describe('webhook delivery survives kill -9 between the send and its record', () => {
  it('the delivery is sent again after the restart, with the same event and delivery ids, and ends succeeded', async () => {
    const received: { headers: IncomingHttpHeaders; body: string }[] = [];
    const receiver = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;
    // A short attempt lease and sweep, so the lapsed attempt of the dead process is retried quickly.
    const env = { WEBHOOKS_ALLOW_LOOPBACK: 'true', WEBHOOK_ATTEMPT_LEASE_MS: '1500', LOCAL_WEBHOOK_SWEEP_INTERVAL_MS: '300', LOCAL_WEBHOOK_SWEEP_OVERDUE_MS: '1000' };
    try {
      const dataDir = newDataDir();
      const first = await startChild(dataDir, { ...env, FAULT_CRASH_AT: 'webhook.after-send' });
      children.push(first);
      const hook = await first.request('POST', '/api/v1/webhooks', { url, events: ['upload.created'] });
      expect(hook.status).toBe(201);
      const webhookId = ((await hook.json()) as { webhook: { id: string } }).webhook.id;
      await first.request('POST', '/api/v1/uploads', { phone_numbers: hundredNumbers() }).catch(() => undefined);
      expect(await first.exited).toEqual({ code: null, signal: 'SIGKILL' });
      const events = () => received.filter((r) => r.headers['x-service-event'] === 'upload.created');
      expect(events()).toHaveLength(1);

      const second = await startChild(dataDir, env);
      children.push(second);
      await waitFor('the delivery sent again', async () => (events().length >= 2 ? true : null), 120_000);
      const [a, b] = events();
      expect(b!.headers['x-service-event-id']).toBe(a!.headers['x-service-event-id']);
      expect(b!.headers['x-service-delivery-id']).toBe(a!.headers['x-service-delivery-id']);
      const eventId = String(a!.headers['x-service-event-id']);
      const delivery = await waitFor('the delivery recorded as succeeded', async () => {
        const list = (await (await second.request('GET', `/api/v1/webhooks/${webhookId}/deliveries`)).json()) as { data: { state: string; event_id: string; attempt_count: number }[] };
        const mine = list.data.find((d) => d.event_id === eventId);
        return mine?.state === 'succeeded' ? mine : null;
      }, 120_000);
      // The attempt the crash cut off was never recorded: the one on record is the resend.
      expect(delivery.attempt_count).toBe(1);
    } finally {
      receiver.close();
    }
  }, CHILD_TEST_MS);
});
