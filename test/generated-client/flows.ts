import createClient from 'openapi-fetch';
import type { paths } from './schema';

// An integrator's script on a client generated from /openapi.json by openapi-typescript, with
// openapi-fetch: every main flow, with no cast. test/integration/platform/generated-client.test.ts
// generates `schema` from the served document beside a copy of this file (so `./schema` is never
// committed, and the project's own typecheck leaves this folder out), compiles it with strict
// TypeScript, fails on any type assertion in it, then runs it against the local service.

export interface FlowsInput {
  baseUrl: string;
  apiKey: string;
  /** A receiver on loopback that answers 2xx (the service pings it at registration). */
  webhookUrl: string;
}

export interface FlowsResult {
  balance: number;
  contactId: string;
  contactReplayed: boolean;
  uploadId: string;
  uploadStatus: string;
  multipartUploadId: string;
  processedUrl: string;
  stagedUrl: string;
  webhookId: string;
  spamNumberId: string;
  unauthorized: string;
}

const fail = (what: string, error: unknown): never => {
  throw new Error(`${what}: ${JSON.stringify(error)}`);
};

export async function runFlows(input: FlowsInput, waitUntil: (what: string, done: () => Promise<boolean>) => Promise<void>): Promise<FlowsResult> {
  const client = createClient<paths>({ baseUrl: input.baseUrl, headers: { Authorization: `Bearer ${input.apiKey}` } });

  const balance = await client.GET('/api/v1/credits/balance');
  if (!balance.data) return fail('balance', balance.error);

  // A contact, with an Idempotency-Key: the second post replays the first.
  const contactBody = { phone: '(212) 555-0143', properties: { full_name: 'Ada Lovelace' }, validation_tier: 'standard' as const };
  const created = await client.POST('/api/v2/contacts', { body: contactBody, params: { header: { 'Idempotency-Key': 'generated-client-1' } } });
  if (!created.data) return fail('create contact', created.error);
  const replay = await client.POST('/api/v2/contacts', { body: contactBody, params: { header: { 'Idempotency-Key': 'generated-client-1' } } });
  if (!replay.data) return fail('replay contact', replay.error);
  const contact = await client.GET('/api/v2/contacts/{contact_id}', { params: { path: { contact_id: created.data.id } } });
  if (!contact.data) return fail('get contact', contact.error);
  const contacts = await client.GET('/api/v2/contacts', { params: { query: { limit: 10 } } });
  if (!contacts.data) return fail('list contacts', contacts.error);

  // A JSON upload (at least 100 numbers), processed; its processed file's link.
  const phones = Array.from({ length: 100 }, (_, i) => `(212) 555-${String(1000 + i)}`);
  const upload = await client.POST('/api/v1/uploads', { body: { phone_numbers: phones } });
  if (!upload.data) return fail('create upload', upload.error);
  const uploadId = upload.data.id;
  let uploadStatus = upload.data.status;
  await waitUntil('the upload to complete', async () => {
    const got = await client.GET('/api/v1/uploads/{id}', { params: { path: { id: uploadId } } });
    if (!got.data) return fail('get upload', got.error);
    uploadStatus = got.data.status;
    return uploadStatus === 'completed' || uploadStatus === 'failed';
  });
  const processed = await client.GET('/api/v1/uploads/{id}/download/processed', { params: { path: { id: uploadId } } });
  if (!processed.data) return fail('processed link', processed.error);
  const uploads = await client.GET('/api/v1/uploads', { params: { query: { limit: 5 } } });
  if (!uploads.data) return fail('list uploads', uploads.error);

  // A CSV file as multipart: the file part is a Blob, typed as such.
  const csv = new Blob([`phone,name\n${phones.map((phone, i) => `${phone},Person ${i}`).join('\n')}\n`], { type: 'text/csv' });
  const multipart = await client.POST('/api/v1/uploads', {
    body: { file: csv, phone_column: 'phone', validation_tier: 'standard' },
    bodySerializer: (fields) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) if (value !== undefined) form.append(name, value instanceof Blob ? value : String(value));
      return form;
    },
  });
  if (!multipart.data) return fail('multipart upload', multipart.error);

  // Where a large file goes instead: the staging slot.
  const staged = await client.POST('/api/v1/uploads/staging', { params: { query: { format: 'csv' } } });
  if (!staged.data) return fail('staging', staged.error);

  // A webhook endpoint (the service pings it first) and its deliveries.
  const hook = await client.POST('/api/v1/webhooks', { body: { url: input.webhookUrl, events: ['upload.completed', 'contact.completed'] } });
  if (!hook.data) return fail('webhook', hook.error);
  const deliveries = await client.GET('/api/v1/webhooks/{webhook_id}/deliveries', { params: { path: { webhook_id: hook.data.webhook.id } } });
  if (!deliveries.data) return fail('deliveries', deliveries.error);

  // A caller-ID number to monitor.
  const spam = await client.POST('/api/v1/spam/numbers', { body: { phone_number: '(202) 318-0301' } });
  if (!spam.data) return fail('spam number', spam.error);
  const numbers = await client.GET('/api/v1/spam/numbers');
  if (!numbers.data) return fail('spam numbers', numbers.error);

  // An error body is typed too.
  const anonymous = createClient<paths>({ baseUrl: input.baseUrl });
  const refused = await anonymous.GET('/api/v1/credits/balance');
  // Each status has its own body: the 401's `detail`, a gateway's `message`.
  const unauthorized = !refused.error ? 'answered' : 'detail' in refused.error ? refused.error.detail : refused.error.message;

  return {
    balance: balance.data.total,
    contactId: created.data.id,
    contactReplayed: replay.data.id === created.data.id,
    uploadId,
    uploadStatus,
    multipartUploadId: multipart.data.id,
    processedUrl: processed.data.url,
    stagedUrl: staged.data.url,
    webhookId: hook.data.webhook.id,
    spamNumberId: spam.data.number.id,
    unauthorized,
  };
}
