import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';

const service = useTestService();

interface Page {
  data: Array<{ id: string }>;
  next_cursor: string | null;
}

const newOrg = (name: string) => newCustomer({ name, subscriptionActive: true, credits: 100_000 });

async function page(key: string, path: string): Promise<Page> {
  const res = await service.request('GET', path, { key });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBe(200);
  return (await res.json()) as Page;
}

async function refused(key: string, path: string): Promise<void> {
  const res = await service.request('GET', path, { key });
  expect(res.status, path).toBe(400);
  expect(await res.json()).toEqual({ detail: 'Invalid cursor: pass next_cursor from the previous page of the same list, with the same filters, unchanged' });
}

async function createUploads(key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let u = 0; u < count; u++) {
    const phone_numbers = Array.from({ length: 100 }, (_, i) => `+1212555${String(1000 + u * 100 + i)}`);
    const res = await service.request('POST', '/api/v1/uploads', { key, body: { phone_numbers } });
    expect(res.status).toBe(200);
    ids.push(((await res.json()) as { id: string }).id);
  }
  await service.runtime.settleWorkflows();
  return ids.reverse(); // newest first
}

async function createContacts(key: string, count: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < count; i++) {
    const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone: `+1415555${String(2000 + i)}` } });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  return ids.reverse();
}

const flip = (cursor: string, at: number) => cursor.slice(0, at) + (cursor[at] === 'A' ? 'B' : 'A') + cursor.slice(at + 1);
const q = encodeURIComponent;

describe('pagination cursors: opaque, authenticated, bound to their list', () => {
  it('pages uploads newest first; an exactly full last page has next_cursor null', async () => {
    const { key } = await newOrg('uploads-pages');
    const ids = await createUploads(key, 4);
    const first = await page(key, '/api/v1/uploads?limit=2');
    expect(first.data.map((u) => u.id)).toEqual(ids.slice(0, 2));
    expect(first.next_cursor).toEqual(expect.any(String));
    const second = await page(key, `/api/v1/uploads?limit=2&cursor=${q(first.next_cursor!)}`);
    expect(second.data.map((u) => u.id)).toEqual(ids.slice(2, 4));
    expect(second.next_cursor).toBeNull();
    expect((await page(key, '/api/v1/uploads?limit=4')).next_cursor).toBeNull();
    expect((await page(key, '/api/v1/uploads?limit=3')).next_cursor).toEqual(expect.any(String));

    // Opaque: the cursor reveals no table key, organization id or upload id.
    const raw = Buffer.from(first.next_cursor!, 'base64url').toString('latin1');
    for (const secret of ['ORG#', 'UPLOAD#', 'gsi1', ...ids]) expect(raw).not.toContain(secret);
  });

  it('pages contacts with and without a status filter; exactly full last pages end the list', async () => {
    const { key } = await newOrg('contacts-pages');
    const ids = await createContacts(key, 3);
    for (const list of ['/api/v1/contacts', '/api/v2/contacts', '/api/v2/contacts?status=queued']) {
      const sep = list.includes('?') ? '&' : '?';
      const all = await page(key, `${list}${sep}limit=3`);
      expect(all.data.map((c) => c.id)).toEqual(ids);
      expect(all.next_cursor).toBeNull();
      const first = await page(key, `${list}${sep}limit=2`);
      const rest = await page(key, `${list}${sep}limit=2&cursor=${q(first.next_cursor!)}`);
      expect([...first.data, ...rest.data].map((c) => c.id)).toEqual(ids);
      expect(rest.next_cursor).toBeNull();
    }
    // v1 and v2 list the same contacts: a cursor of one pages the other.
    const v1 = await page(key, '/api/v1/contacts?limit=1');
    expect((await page(key, `/api/v2/contacts?limit=1&cursor=${q(v1.next_cursor!)}`)).data.map((c) => c.id)).toEqual([ids[1]]);
  });

  it('refuses tampered, truncated, invented and foreign cursors with 400, never 500', async () => {
    const a = await newOrg('cursor-a');
    const b = await newOrg('cursor-b');
    await createUploads(a.key, 2);
    await createUploads(b.key, 2);
    await createContacts(a.key, 3);
    await createContacts(b.key, 3);
    const uploadsCursor = (await page(a.key, '/api/v1/uploads?limit=1')).next_cursor!;
    const contactsCursor = (await page(a.key, '/api/v1/contacts?limit=1')).next_cursor!;
    const queuedCursor = (await page(a.key, '/api/v1/contacts?status=queued&limit=1')).next_cursor!;
    const otherOrgUploads = (await page(b.key, '/api/v1/uploads?limit=1')).next_cursor!;
    const otherOrgContacts = (await page(b.key, '/api/v1/contacts?limit=1')).next_cursor!;

    // Tampered anywhere (version byte, iv, body, tag), truncated, extended.
    for (const at of [0, 5, 20, uploadsCursor.length - 2]) await refused(a.key, `/api/v1/uploads?cursor=${q(flip(uploadsCursor, at))}`);
    await refused(a.key, `/api/v1/uploads?cursor=${q(uploadsCursor.slice(0, -4))}`);
    await refused(a.key, `/api/v1/uploads?cursor=${q(uploadsCursor.slice(0, 10))}`);
    await refused(a.key, `/api/v1/uploads?cursor=${q(uploadsCursor + 'AAAA')}`);
    // Invented: garbage, an empty value, and the old unauthenticated form naming another organization's key.
    const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const upload = (await page(b.key, '/api/v1/uploads?limit=1')).data[0]!;
    for (const forged of [
      'garbage',
      '!!!!',
      b64({ pk: `UPLOAD#${upload.id}`, sk: 'META', gsi1pk: `ORG#${b.org.id}#UPLOADS`, gsi1sk: `2026-01-01T00:00:00.000Z#${upload.id}` }),
      b64({ pk: 'x', sk: 'y', gsi1pk: `ORG#${a.org.id}#UPLOADS`, gsi1sk: 'z' }),
    ]) {
      await refused(a.key, `/api/v1/uploads?cursor=${q(forged)}`);
    }
    // Foreign: another list, another status filter, another organization.
    await refused(a.key, `/api/v1/contacts?cursor=${q(uploadsCursor)}`);
    await refused(a.key, `/api/v1/uploads?cursor=${q(contactsCursor)}`);
    await refused(a.key, `/api/v1/contacts?cursor=${q(queuedCursor)}`);
    await refused(a.key, `/api/v1/contacts?status=completed&cursor=${q(queuedCursor)}`);
    await refused(a.key, `/api/v1/contacts?status=queued&cursor=${q(contactsCursor)}`);
    await refused(a.key, `/api/v1/uploads?cursor=${q(otherOrgUploads)}`);
    await refused(a.key, `/api/v2/contacts?cursor=${q(otherOrgContacts)}`);
    // The genuine cursors still work.
    expect((await page(a.key, `/api/v1/uploads?limit=1&cursor=${q(uploadsCursor)}`)).data).toHaveLength(1);
    expect((await page(a.key, `/api/v1/contacts?status=queued&limit=1&cursor=${q(queuedCursor)}`)).data).toHaveLength(1);
  });
});
