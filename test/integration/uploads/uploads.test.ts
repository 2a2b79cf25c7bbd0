import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { getBalance } from '../../../lambdas/credits/credits';
import { filesBucket, s3 } from '../../../lambdas/platform/blob';
import { newCustomer } from '../../support/customer';

const service = useTestService();

interface UploadBody {
  id: string;
  status: string;
  original_filename: string;
  valid_row_count: number;
  valid_number_count: number;
  invalid_row_count: number;
  credits_charged: number;
  credits_required: number;
  identity_enabled: boolean;
  source: string;
  result_summary: { format: string; total_rows: number; status_counts: Record<string, number>; identity_counts: Record<string, number> } | null;
  export_count: number;
  processed_available: boolean;
}

const numbers = (n: number, area = 212, from = 1000) => Array.from({ length: n }, (_, i) => `(${area}) 555-${String(from + i).padStart(4, '0')}`);

function multipart(csv: string | Buffer, fields: Record<string, string>, filename = 'list.csv'): FormData {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([csv], { type: 'text/csv' }), filename);
  return form;
}

async function post(body: FormData | unknown, key?: string): Promise<Response> {
  if (body instanceof FormData) return fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body, headers: { authorization: `Bearer ${key ?? service.apiKey}` } });
  return service.request('POST', '/api/v1/uploads', { body, key });
}

/** The body as text with any BOM kept (Response.text() would drop it). */
async function fetchText(url: string): Promise<string> {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await (await fetch(url)).arrayBuffer());
}

const orgKey = (credits: number, subscription = true) => newCustomer({ name: 'Uploads', credits, subscriptionActive: subscription });

describe('POST /api/v1/uploads → processing → downloads', () => {
  it('multipart CSV with two phone columns and a name: charged per number, completed with per-column results', async () => {
    const { org, key } = await orgKey(1000);
    const phones = numbers(150);
    const alts = numbers(150, 415);
    const lines = ['\uFEFFname,phone,alt,"notes, free"', ...phones.map((p, i) => `"Person ${i}",${p},${i < 50 ? alts[i] : i < 60 ? phones[0] : ''},=cmd()`)];
    const res = await post(multipart(lines.join('\r\n') + '\r\n', { phone_columns: 'phone,alt', full_name_column: 'name', validation_tier: 'max' }), key);
    expect(res.status).toBe(200);
    const upload = (await res.json()) as UploadBody;
    // 150 + 50 distinct alts; the 10 repeats of the first number are charged once.
    expect(upload).toMatchObject({ status: 'ready_for_processing', valid_row_count: 150, valid_number_count: 200, invalid_row_count: 0, credits_charged: 300, identity_enabled: true, source: 'api', original_filename: 'list.csv' });
    expect((await getBalance(org.id)).total).toBe(700);

    await service.runtime.settleWorkflows();
    const done = (await (await service.request('GET', `/api/v1/uploads/${upload.id}`, { key })).json()) as UploadBody;
    expect(done.status).toBe('completed');
    expect(done.result_summary!.format).toBe('identity');
    expect(done.result_summary).toMatchObject({ simulated: true }); // the local runtime's provider is the simulator
    expect(Object.values(done.result_summary!.status_counts).reduce((a, b) => a + b, 0)).toBe(150);

    const link = (await (await service.request('GET', `/api/v1/uploads/${upload.id}/download/processed`, { key })).json()) as { url: string; expires_at: number };
    expect(link.expires_at).toBeGreaterThan(Date.now() / 1000 + 3500);
    expect(new URL(link.url).searchParams.get('X-Amz-Expires')).toBe('3600');
    const processed = await fetchText(link.url);
    const rows = processed.split('\r\n');
    expect(rows[0]).toBe('\uFEFFname,phone,alt,"notes, free",phone_Service_Status,phone_Service_Answer_Intent,phone_Service_Identity,alt_Service_Status,alt_Service_Answer_Intent,alt_Service_Identity');
    expect(rows[1]!.startsWith(`"Person 0",${phones[0]},${alts[0]},=cmd(),`)).toBe(true);
    expect(rows[100]!.endsWith(',,,')).toBe(true); // row 100 has no alt number: blank cells
    expect(rows.filter(Boolean)).toHaveLength(151);

    const tier = '2 - Likely Answer';
    const slice = await service.request('GET', `/api/v1/uploads/${upload.id}/download/processed?statuses=${encodeURIComponent(tier)}&sort=best_status`, { key });
    expect(slice.status).toBe(200);
    const sliced = (await fetchText(((await slice.json()) as { url: string }).url)).split('\r\n').filter(Boolean);
    expect(sliced.slice(1).every((line) => line.includes(tier))).toBe(true);
    const bad = await service.request('GET', `/api/v1/uploads/${upload.id}/download/processed?statuses=Likely%20Answer`, { key });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { detail: string }).detail).toContain('1 - Likely Right-Party Answer');
    expect((await service.request('GET', `/api/v1/uploads/${upload.id}/download/processed-filtered`, { key })).status).toBe(200);
    const original = (await (await service.request('GET', `/api/v1/uploads/${upload.id}/download/original`, { key })).json()) as { url: string };
    expect(await fetchText(original.url)).toBe(lines.join('\r\n') + '\r\n');
    const after = (await (await service.request('GET', `/api/v1/uploads/${upload.id}`, { key })).json()) as UploadBody;
    expect(after.export_count).toBe(3);
  });

  it('JSON phone_numbers: synthesized name, single Service_Status column, identity only on request', async () => {
    const res = await post({ phone_numbers: [...numbers(120, 312), 'garbage', '+44 20 7946 0958'] });
    expect(res.status).toBe(200);
    const upload = (await res.json()) as UploadBody;
    expect(upload.original_filename).toMatch(/^api_upload_[0-9a-f]+\.csv$/);
    expect(upload).toMatchObject({ valid_number_count: 120, invalid_row_count: 2, credits_charged: 120, identity_enabled: false });
    await service.runtime.settleWorkflows();
    const link = (await (await service.request('GET', `/api/v1/uploads/${upload.id}/download/processed`)).json()) as { url: string };
    const lines = (await fetchText(link.url)).split('\n');
    expect(lines[0]).toBe('phone,Service_Status');
    expect(lines[121]).toBe('garbage,Unknown');

    const contacts = numbers(110, 646).map((phone, i) => ({ phone, name: `N ${i}`, meta: { i } }));
    const withNames = (await (await post({ contacts, phone_column: 'phone', full_name_column: 'name', filename: 'crm.csv' })).json()) as UploadBody;
    await service.runtime.settleWorkflows();
    const plain = await fetchText(((await (await service.request('GET', `/api/v1/uploads/${withNames.id}/download/processed`)).json()) as { url: string }).url);
    expect(plain.split('\n')[0]).toBe('phone,name,meta,Service_Status');
    const withIdentity = await fetchText(((await (await service.request('GET', `/api/v1/uploads/${withNames.id}/download/processed?include_identity=true`)).json()) as { url: string }).url);
    expect(withIdentity.split('\n')[0]).toBe('phone,name,meta,Service_Status,Service_Identity');
  });

  it('answers every hostile input with its status and loses nothing', async () => {
    const { org, key } = await orgKey(100_000);
    const good = ['phone', ...numbers(100)].join('\n');
    const withExtra = (extra: (form: FormData) => void) => {
      const form = multipart(good, { phone_column: 'phone' });
      extra(form);
      return form;
    };
    const cases: [FormData | unknown, number, RegExp | null][] = [
      [multipart('', { phone_column: 'phone' }), 400, /empty/],
      [multipart(good, { phone_column: 'tel' }), 400, /not a column/],
      [multipart(good, {}), 400, /phone_column or phone_columns/],
      // Which column or file was meant is the caller's to say: nothing given twice is dropped unseen.
      [withExtra((f) => f.append('phone_column', 'other')), 400, /The form field 'phone_column' is given more than once/],
      [withExtra((f) => f.append('file', new Blob([good], { type: 'text/csv' }), 'second.csv')), 400, /more than one file part/],
      [withExtra((f) => Array.from({ length: 20 }, (_, i) => f.append(`x${i}`, 'y'))), 400, /more than 20 fields/],
      [multipart(good, { phone_column: 'phone', phone_columns: 'alt' }), 400, /not among phone_columns/],
      [multipart(good, { phone_column: 'phone', first_name_column: 'first' }), 400, /together/],
      [multipart(good, { phone_column: 'phone', validation_tier: 'gold' }), 400, /validation_tier/],
      [multipart(Buffer.from([0x70, 0x68, 0x6f, 0x6e, 0x65, 0x0a, 0xff, 0xfe, 0x0a]), { phone_column: 'phone' }), 400, /UTF-8/],
      [multipart('phone,phone\n1,2\n', { phone_column: 'phone' }), 400, /unique/],
      [multipart('phone\n"unterminated\n', { phone_column: 'phone' }), 400, /not valid CSV/],
      [multipart(['phone', ...numbers(100).map((n) => `${n},extra`)].join('\n'), { phone_column: 'phone' }), 400, /fields/],
      [multipart(['phone', ...numbers(99)].join('\n'), { phone_column: 'phone' }), 422, /"got":99/],
      // No contacts: short of numbers like any other upload. Contacts none of which has a mapped
      // phone key: the mapping names nothing they hold, as a CSV's missing column (400).
      [{ contacts: [], phone_column: 'p' }, 422, /"got":0/],
      [{ contacts: [{ p: null }, {}], phone_column: 'p' }, 422, /"got":0/],
      [{ contacts: [{}, {}], phone_column: 'p' }, 400, /phone_column 'p' is not a key of any contact; the contacts have no keys/],
      [{ contacts: [{ Phone: '2125550143', name: 'Ada' }, { Phone: '2125550144', id: 2 }], phone_column: 'phone' }, 400, /phone_column 'phone' is not a key of any contact; their keys: 'Phone', 'name', 'id'/],
      [{ contacts: [{ Phone: '2125550143' }], phone_column: 'mobile', phone_columns: ['mobile', 'home'] }, 400, /None of phone_columns 'mobile', 'home' is a key of any contact; their keys: 'Phone'/],
      [{ contacts: [{ p: { x: '2125550143' } }], phone_column: 'p' }, 400, /contacts\[0\]\.p must be a string or a number, not an object/],
      [{ contacts: [{ p: '2125550143', n: 'Ada' }, { p: '2125550144', n: ['Ada'] }], phone_column: 'p', full_name_column: 'n' }, 400, /contacts\[1\]\.n must be a string or a number, not an array/],
      [{ contacts: [{ p: true }], phone_column: 'p' }, 400, /not a boolean/],
      [{ phone_numbers: numbers(10), contacts: [] }, 400, /exactly one/],
      [{}, 400, /exactly one/],
      [{ contacts: [{ phone: '1' }] }, 400, /phone_column is required/],
      [{ phone_numbers: numbers(100), full_name_column: 'name' }, 400, /Name columns require contacts/],
      [{ phone_numbers: [1, 2, 3] }, 400, /phone_numbers/],
      [{ phone_numbers: 'nope' }, 400, /phone_numbers/],
      [{ phone_numbers: numbers(100), validation_tier: 'MAX' }, 400, /validation_tier/],
      [{ phone_numbers: Array.from({ length: 250_001 }, () => '2125550143') }, 413, /250000/],
    ];
    for (const [body, status, detail] of cases) {
      const res = await post(body, key);
      expect(res.status, JSON.stringify(body instanceof FormData ? [...body.keys()] : body).slice(0, 120)).toBe(status);
      const json = (await res.json()) as { detail: unknown };
      if (detail) expect(JSON.stringify(json.detail)).toMatch(detail);
      if (status === 422) expect(json.detail).toMatchObject({ error: 'min_contacts_required', min: 100 });
    }
    const wrongType = await service.request('POST', '/api/v1/uploads', { key, body: 'phone\n1', headers: { 'content-type': 'text/csv' } });
    expect(wrongType.status).toBe(415);
    expect((await getBalance(org.id)).total).toBe(100_000);
    const list = (await (await service.request('GET', '/api/v1/uploads', { key })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(0);
  });

  it('402 without enough credits, 403 without a subscription, 410 on DELETE, 404 across organizations', async () => {
    const poor = await orgKey(50);
    const body = { phone_numbers: numbers(100, 718) };
    const refused = await post(body, poor.key);
    expect(refused.status).toBe(402);
    expect(typeof ((await refused.json()) as { detail: unknown }).detail).toBe('string');
    expect((await getBalance(poor.org.id)).total).toBe(50);
    // Nothing of the refused list is kept (its original, work file and layout were written before the charge).
    const { ListObjectsV2Command } = await import('@aws-sdk/client-s3');
    const left = await (await s3()).send(new ListObjectsV2Command({ Bucket: filesBucket(), Prefix: `uploads/${poor.org.id}/` }));
    expect(left.Contents ?? []).toEqual([]);
    const lapsed = await orgKey(500, false);
    expect((await post(body, lapsed.key)).status).toBe(403);

    const mine = (await (await post(body)).json()) as UploadBody;
    const del = await service.request('DELETE', `/api/v1/uploads/${mine.id}`);
    expect(del.status).toBe(410);
    expect((await service.request('GET', `/api/v1/uploads/${mine.id}`)).status).toBe(200);
    expect((await service.request('GET', `/api/v1/uploads/${mine.id}`, { key: poor.key })).status).toBe(404);
    expect((await service.request('GET', `/api/v1/uploads/${mine.id}/download/original`, { key: poor.key })).status).toBe(404);
    await service.runtime.settleWorkflows();
  });

  it('lists newest first with cursors', async () => {
    const { key } = await orgKey(10_000);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(((await (await post({ phone_numbers: numbers(100, 202, 2000 + i * 100) }, key)).json()) as UploadBody).id);
    await service.runtime.settleWorkflows();
    const first = (await (await service.request('GET', '/api/v1/uploads?limit=2', { key })).json()) as { data: UploadBody[]; next_cursor: string };
    expect(first.data.map((u) => u.id)).toEqual([ids[2], ids[1]]);
    const second = (await (await service.request('GET', `/api/v1/uploads?limit=2&cursor=${first.next_cursor}`, { key })).json()) as { data: UploadBody[]; next_cursor: string | null };
    expect(second.data.map((u) => u.id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeNull();
    expect((await service.request('GET', '/api/v1/uploads?limit=101', { key })).status).toBe(400);
  });
});
