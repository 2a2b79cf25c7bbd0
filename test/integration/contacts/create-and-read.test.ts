import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { getBalance } from '../../../lambdas/credits/credits';
import { newCustomer } from '../../support/customer';
import { ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '../../../lambdas/platform/table';
import { sha256Hex } from '../../../lambdas/platform/ids';

const service = useTestService();

/** A POST with headers exactly as listed, repeated names as separate lines (what fetch's Headers would join first). */
function rawPost(path: string, headers: Record<string, string | string[]>, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${service.url}${path}`, { method: 'POST', headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

interface ContactBody {
  id: string;
  status: string;
  phone: string;
  credits_charged: number;
  validation_tier: string;
  properties: Record<string, unknown>;
  service_status: string | null;
  service_identity?: string | null;
  message: string | null;
}

const orgKey = (credits: number) => newCustomer({ name: 'Contacts', credits });

describe('POST /api/v{1,2}/contacts', () => {
  it('creates a queued contact in both versions, normalizing the phone and echoing properties', async () => {
    const v1 = await service.request('POST', '/api/v1/contacts', { body: { phone: '(212) 555-0143', properties: { crm: { id: 7 }, tags: ['a'] } } });
    expect(v1.status).toBe(201);
    const one = (await v1.json()) as ContactBody;
    expect(one).toMatchObject({ status: 'queued', phone: '+12125550143', credits_charged: 1, validation_tier: 'standard', properties: { crm: { id: 7 }, tags: ['a'] }, service_status: null });
    expect(one.message).toMatch(/Queued/);
    expect('service_identity' in one).toBe(false);

    const v2 = await service.request('POST', '/api/v2/contacts', { body: { phone: '+1 415.555.0100', validation_tier: 'STANDARD' } });
    expect(v2.status).toBe(201);
    const two = (await v2.json()) as ContactBody;
    expect(two.service_identity).toBeNull();
    // Both versions read the same contacts.
    expect((await service.request('GET', `/api/v2/contacts/${one.id}`)).status).toBe(200);
    expect(((await (await service.request('GET', `/api/v1/contacts/${two.id}`)).json()) as ContactBody).phone).toBe('+14155550100');
  });

  it('charges max contacts 2, 1, 2, 1 and moves the balance by exactly that', async () => {
    const { org, key } = await orgKey(100);
    const charges: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await service.request('POST', '/api/v1/contacts', { key, body: { phone: `212555${String(1000 + i)}`, validation_tier: 'max' } });
      expect(res.status).toBe(201);
      charges.push(((await res.json()) as ContactBody).credits_charged);
    }
    expect(charges).toEqual([2, 1, 2, 1, 2]);
    expect((await getBalance(org.id)).total).toBe(100 - 8);
  });

  it('concurrent max creates still total ceil(N × 1.5)', async () => {
    const { org, key } = await orgKey(1000);
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => service.request('POST', '/api/v2/contacts', { key, body: { phone: `+1 (415) 555-${String(2000 + i)}`, validation_tier: 'max' } })),
    );
    expect(responses.every((r) => r.status === 201)).toBe(true);
    const charged = (await Promise.all(responses.map(async (r) => ((await r.json()) as ContactBody).credits_charged))).reduce((a, b) => a + b, 0);
    expect(charged).toBe(60);
    expect((await getBalance(org.id)).total).toBe(940);
  });

  it('replays an idempotency key without charging, and refuses its reuse for another request', async () => {
    const { org, key } = await orgKey(10);
    const body = { phone: '2125550199', idempotency_key: 'order-42', properties: { order: 42 } };
    const first = await service.request('POST', '/api/v1/contacts', { key, body });
    const again = await service.request('POST', '/api/v2/contacts', { key, body });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as ContactBody).id).toBe(((await first.json()) as ContactBody).id);
    expect((await getBalance(org.id)).total).toBe(9);
    const other = await service.request('POST', '/api/v1/contacts', { key, body: { ...body, phone: '2125550198' } });
    expect(other.status).toBe(409);
    expect((await getBalance(org.id)).total).toBe(9);
  });

  it('takes a retry whose properties list their members in another order for the same request', async () => {
    const { org, key } = await orgKey(10);
    const first = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550164', idempotency_key: 'ord-1', properties: { crm_id: '42', source: 'web', nested: { b: 1, a: [2, { y: 1, x: 0 }] } } } });
    const reordered = await service.request('POST', '/api/v2/contacts', { key, body: { properties: { nested: { a: [2, { x: 0, y: 1 }], b: 1 }, source: 'web', crm_id: '42' }, idempotency_key: 'ord-1', phone: '2125550164' } });
    expect([first.status, reordered.status]).toEqual([201, 201]);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(((await reordered.json()) as ContactBody).id).toBe(((await first.json()) as ContactBody).id);
    // An array's order is its value: another request.
    const otherArray = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550164', idempotency_key: 'ord-1', properties: { crm_id: '42', source: 'web', nested: { b: 1, a: [{ y: 1, x: 0 }, 2] } } } });
    expect(otherArray.status).toBe(409);
    expect((await getBalance(org.id)).total).toBe(9);
  });

  it('a key claimed before fingerprints sorted members (it holds them in the order sent) still replays a retry sent in that order', async () => {
    const { org, key } = await orgKey(10);
    const properties = { source: 'web', crm_id: '42' };
    const first = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550165', idempotency_key: 'legacy-1', properties } });
    expect(first.status).toBe(201);
    // Make the claim what the version before c4e1621 wrote: the members hashed in the order sent.
    const claims = await db().send(new ScanCommand({ TableName: tableName(), FilterExpression: 'begins_with(pk, :p)', ExpressionAttributeValues: { ':p': `IDEMP#${org.id}#` } }));
    expect(claims.Items).toHaveLength(1);
    const legacy = sha256Hex(JSON.stringify(['+12125550165', 'standard', properties, null, null]));
    expect(claims.Items![0]!.fingerprint).not.toBe(legacy);
    await db().send(new UpdateCommand({ TableName: tableName(), Key: { pk: claims.Items![0]!.pk, sk: claims.Items![0]!.sk }, UpdateExpression: 'SET fingerprint = :f', ExpressionAttributeValues: { ':f': legacy } }));
    const again = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550165', idempotency_key: 'legacy-1', properties } });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(((await again.json()) as ContactBody).id).toBe(((await first.json()) as ContactBody).id);
    // Another request under that key is still refused.
    expect((await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550165', idempotency_key: 'legacy-1', properties: { source: 'app', crm_id: '42' } } })).status).toBe(409);
    expect((await getBalance(org.id)).total).toBe(9);
  });

  it('refuses a number a double cannot give back (echoed unchanged or not at all), charging nothing', async () => {
    const { org, key } = await orgKey(10);
    // Bodies written by hand: JSON.stringify cannot write these numbers.
    const json = { 'content-type': 'application/json' };
    for (const number of ['12345678901234567890', '9007199254740993', '1e400']) {
      const res = await service.request('POST', '/api/v2/contacts', { key, body: `{"phone":"2125550171","properties":{"order_id":${number}}}`, headers: json });
      expect(res.status, number).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toBe(`The number ${number} cannot be kept exactly (JSON numbers are kept to 15–17 significant digits, up to about 1.8e308); send it as a string`);
    }
    const kept = await service.request('POST', '/api/v2/contacts', { key, body: '{"phone":"2125550171","properties":{"order_id":9007199254740991,"as_text":"12345678901234567890","ratio":0.1}}', headers: json });
    expect(kept.status).toBe(201);
    expect(((await kept.json()) as ContactBody).properties).toEqual({ order_id: 9007199254740991, as_text: '12345678901234567890', ratio: 0.1 });
    expect((await getBalance(org.id)).total).toBe(9);
  });

  it('takes the Idempotency-Key header as the same key as the body field, and refuses the two when they differ', async () => {
    const { org, keys } = await newCustomer({ name: 'Contacts', credits: 10, keys: 2 });
    const [key, otherKey] = keys as [string, string];
    const body = { phone: '2125550177', properties: { order: 43 } };
    const first = await service.request('POST', '/api/v2/contacts', { key, body, headers: { 'idempotency-key': 'order-43' } });
    const again = await service.request('POST', '/api/v2/contacts', { key, body, headers: { 'Idempotency-Key': 'order-43' } });
    // The header and the body field name one key: the same scope, the same contact.
    const viaBody = await service.request('POST', '/api/v1/contacts', { key, body: { ...body, idempotency_key: 'order-43' } });
    const both = await service.request('POST', '/api/v1/contacts', { key, body: { ...body, idempotency_key: 'order-43' }, headers: { 'idempotency-key': 'order-43' } });
    expect([first.status, again.status, viaBody.status, both.status]).toEqual([201, 201, 201, 201]);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect([again, viaBody, both].map((r) => r.headers.get('idempotent-replayed'))).toEqual(['true', 'true', 'true']);
    const ids = await Promise.all([first, again, viaBody, both].map(async (r) => ((await r.json()) as ContactBody).id));
    expect(new Set(ids).size).toBe(1);
    expect((await getBalance(org.id)).total).toBe(9);

    const differ = await service.request('POST', '/api/v1/contacts', { key, body: { ...body, idempotency_key: 'order-43' }, headers: { 'idempotency-key': 'order-44' } });
    expect(differ.status).toBe(400);
    expect(((await differ.json()) as { detail: string }).detail).toMatch(/Idempotency-Key header and the body’s idempotency_key differ/);
    const tooLong = await service.request('POST', '/api/v1/contacts', { key, body, headers: { 'idempotency-key': 'k'.repeat(256) } });
    expect(tooLong.status).toBe(400);
    expect(((await tooLong.json()) as { detail: string }).detail).toMatch(/Idempotency-Key header must be 1 to 255 characters/);
    // A header outside visible ASCII is refused, whether its bytes arrive as UTF-8 (curl's 'café') or
    // Latin-1: Node reads UTF-8 bytes as other characters than the body's key, and a retry through
    // the body would have been charged again.
    for (const header of [Buffer.from('café-1', 'utf8').toString('latin1'), 'café-1', 'order 43']) {
      const refused = await service.request('POST', '/api/v2/contacts', { key, body: { ...body, idempotency_key: 'café-1' }, headers: { 'idempotency-key': header } });
      expect(refused.status, header).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toMatch(/Idempotency-Key header must be visible ASCII/);
    }
    // Sent twice (fetch, Node and API Gateway join the two into one value with ', '): said so, not blamed on a character.
    const headers = new Headers({ authorization: `Bearer ${key}`, 'content-type': 'application/json' });
    headers.append('Idempotency-Key', 'order-44');
    headers.append('Idempotency-Key', 'order-45');
    const twice = await fetch(`${service.url}/api/v2/contacts`, { method: 'POST', headers, body: JSON.stringify(body) });
    expect(twice.status).toBe(400);
    expect(((await twice.json()) as { detail: string }).detail).toBe('The Idempotency-Key header arrived as "order-44, order-45": sent more than once, or a key holding a comma; send it once, with one key (a key with a comma goes in the body\'s idempotency_key)');
    // Two header lines (curl -H twice): joined with ',' as API Gateway joins them, refused the same way.
    const lines = await rawPost('/api/v2/contacts', { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': ['order-44', 'order-45'] }, JSON.stringify(body));
    expect(lines.status).toBe(400);
    expect(lines.body).toContain('arrived as \\"order-44,order-45\\": sent more than once');
    // Two Authorization headers are refused as API Gateway's joined value is, not the first one used.
    const auths = await rawPost('/api/v2/contacts', { authorization: [`Bearer ${key}`, `Bearer ${key}`], 'content-type': 'application/json' }, JSON.stringify(body));
    expect(auths.status).toBe(401);
    // Another key of the same organization has its own scope (as with the body field).
    const elsewhere = await service.request('POST', '/api/v2/contacts', { key: otherKey, body, headers: { 'idempotency-key': 'order-43' } });
    expect(elsewhere.status).toBe(201);
    expect(elsewhere.headers.get('idempotent-replayed')).toBeNull();
    expect((await getBalance(org.id)).total).toBe(8);
  });

  it('refuses unknown top-level fields with a 400 naming them, and keeps properties free-form', async () => {
    const { org, key } = await orgKey(10);
    for (const path of ['/api/v1/contacts', '/api/v2/contacts']) {
      const typo = await service.request('POST', path, { key, body: { phone: '2125550143', validation_teir: 'max', extra: 1 } });
      expect(typo.status).toBe(400);
      expect(((await typo.json()) as { detail: string }).detail).toBe('Invalid request body: Unrecognized keys: "validation_teir", "extra"');
    }
    expect((await getBalance(org.id)).total).toBe(10);
    const free = await service.request('POST', '/api/v2/contacts', { key, body: { phone: '2125550143', properties: { validation_teir: 'max', anything: { nested: true } } } });
    expect(free.status).toBe(201);
    expect(((await free.json()) as ContactBody).properties).toEqual({ validation_teir: 'max', anything: { nested: true } });
  });

  it('answers hostile input with 400 and charges nothing', async () => {
    const { org, key } = await orgKey(10);
    const cases: [unknown, RegExp][] = [
      [{ phone: '+44 20 7946 0958' }, /not a valid US or Canadian/],
      [{ phone: '787-555-0100' }, /not a valid US or Canadian/], // Puerto Rico: NANP but not US/CA
      [{ phone: 'call me maybe' }, /not a valid US or Canadian/],
      [{ phone: '2125550143', validation_tier: 'gold' }, /validation_tier must be one of/],
      [{ phone: 12125550143 }, /phone is required and must be a string/],
      [{}, /phone is required and must be a string/],
      [{ phone: '' }, /phone must not be empty/],
      [{ phone: '2125550143' + ' '.repeat(60) }, /phone must be at most 64 characters/],
      [{ phone: '2125550143', properties: 'x' }, /properties/],
      [{ phone: '2125550143', properties: { blob: 'x'.repeat(17_000) } }, /at most 16384 bytes/],
      [{ phone: '2125550143', idempotency_key: 'k'.repeat(256) }, /idempotency_key/],
      [{ phone: '2125550143', callback_url: 'https://example.com/hook' }, /callback_secret is required/],
      [{ phone: '2125550143', callback_url: '', callback_secret: 's'.repeat(20) }, /^callback_url must not be empty/],
      [{ phone: '2125550143', callback_url: 'http://example.com/hook', callback_secret: 's'.repeat(20) }, /https/i],
      [{ phone: '2125550143', callback_url: 'https://169.254.169.254/latest', callback_secret: 's'.repeat(20) }, /^Invalid callback_url: URL host must resolve to a public address/],
      [{ phone: '2125550143', callback_url: 'https://example.com/a b', callback_secret: 's'.repeat(20) }, /^Invalid callback_url: URL must not contain spaces/],
    ];
    for (const [body, detail] of cases) {
      const res = await service.request('POST', '/api/v1/contacts', { key, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(((await res.json()) as { detail: string }).detail).toMatch(detail);
    }
    const malformed = await service.request('POST', '/api/v1/contacts', { key, body: '{"phone": ', headers: { 'content-type': 'application/json' } });
    expect(malformed.status).toBe(400);
    const wrongType = await service.request('POST', '/api/v1/contacts', { key, body: 'phone=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(wrongType.status).toBe(415);
    expect((await getBalance(org.id)).total).toBe(10);
  });

  it('refuses with 402 when credits are short, creating nothing', async () => {
    const { org, key } = await orgKey(1);
    const max = await service.request('POST', '/api/v1/contacts', { key, body: { phone: '2125550101', validation_tier: 'max' } });
    expect(max.status).toBe(402);
    expect(((await max.json()) as { detail: string }).detail).toBe('Insufficient credits: this contact needs 2 credits and the balance is 1');
    const list = (await (await service.request('GET', '/api/v1/contacts', { key })).json()) as { data: unknown[] };
    expect(list.data).toHaveLength(0);
    expect((await getBalance(org.id)).total).toBe(1);
    expect((await service.request('POST', '/api/v1/contacts', { key, body: { phone: '2125550101' } })).status).toBe(201);
    const standard = await service.request('POST', '/api/v1/contacts', { key, body: { phone: '2125550102' } });
    expect(((await standard.json()) as { detail: string }).detail).toBe('Insufficient credits: this contact needs 1 credit and the balance is 0');
  });
});

describe('GET /api/v{1,2}/contacts', () => {
  it('lists newest first with cursor paging and a status filter, and hides other organizations', async () => {
    const { key } = await orgKey(50);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone: `31255501${10 + i}` } });
      ids.push(((await res.json()) as ContactBody).id);
    }
    const page1 = (await (await service.request('GET', '/api/v2/contacts?limit=2', { key })).json()) as { data: ContactBody[]; next_cursor: string };
    expect(page1.data.map((c) => c.id)).toEqual([ids[4], ids[3]]);
    const page2 = (await (await service.request('GET', `/api/v2/contacts?limit=2&cursor=${page1.next_cursor}`, { key })).json()) as { data: ContactBody[] };
    expect(page2.data.map((c) => c.id)).toEqual([ids[2], ids[1]]);
    const queued = (await (await service.request('GET', '/api/v1/contacts?status=queued&limit=100', { key })).json()) as { data: ContactBody[] };
    expect(queued.data).toHaveLength(5);
    const completed = (await (await service.request('GET', '/api/v1/contacts?status=completed', { key })).json()) as { data: ContactBody[]; next_cursor: null };
    expect(completed).toEqual({ data: [], next_cursor: null });

    expect((await service.request('GET', `/api/v1/contacts/${ids[0]}`)).status).toBe(404); // the demo org's key
    // A UUID is the same in upper case.
    const upper = await service.request('GET', `/api/v1/contacts/${ids[0]!.toUpperCase()}`, { key });
    expect(upper.status).toBe(200);
    expect(((await upper.json()) as ContactBody).id).toBe(ids[0]);
    expect((await service.request('GET', '/api/v1/contacts/not-a-uuid', { key })).status).toBe(404);
    // Every limit it cannot take gets the one message saying what it takes (a repeated parameter reaches the handler comma-joined, as from API Gateway).
    for (const limit of ['0', '', '5&limit=7', '2.5', '101', 'ten']) {
      const res = await service.request('GET', `/api/v1/contacts?limit=${limit}`, { key });
      expect(res.status, limit).toBe(400);
      expect(((await res.json()) as { detail: string }).detail, limit).toBe('Invalid query parameters: limit: must be an integer from 1 to 100');
    }
    expect((await service.request('GET', '/api/v1/contacts?status=done', { key })).status).toBe(400);
    expect((await service.request('GET', '/api/v1/contacts?cursor=garbage', { key })).status).toBe(400);
  });
});
