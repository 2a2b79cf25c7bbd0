import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { newCustomer } from '../../support/customer';
import { createFromStagedOnce } from '../../../lambdas/uploads/staging';
import { filesBucket, objectExists } from '../../../lambdas/platform/blob';

const service = useTestService();

/** Whether the staged file of this id is still in the file store. */
const stagedStored = (orgId: string, id: string, format: 'csv' | 'json' = 'csv') => objectExists(filesBucket(), `staging/${orgId}/${id}.${format}`);

describe('large files through S3 staging', () => {
  it('stages a CSV with the presigned POST, then creates the upload from it under the same rules', async () => {
    const stage = await service.request('POST', '/api/v1/uploads/staging');
    expect(stage.status).toBe(200);
    const staged = (await stage.json()) as { staged_upload_id: string; url: string; fields: Record<string, string>; max_bytes: number; expires_at: number };
    expect(staged.max_bytes).toBe(100 * 1024 * 1024);
    // The policy bounds the object's size (a presigned PUT could not).
    const policy = JSON.parse(Buffer.from(staged.fields.Policy!, 'base64').toString('utf8')) as { conditions: unknown[] };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 100 * 1024 * 1024]);

    const csv = ['phone', ...Array.from({ length: 120 }, (_, i) => `212-555-${String(3000 + i)}`)].join('\n');
    const form = new FormData();
    for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'big.csv');
    const put = await fetch(staged.url, { method: 'POST', body: form });
    expect(put.status).toBeLessThan(300);

    expect(await stagedStored(service.organizationId, staged.staged_upload_id)).toBe(true);
    const created = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: staged.staged_upload_id, phone_column: 'phone', filename: 'big.csv' } });
    expect(created.status).toBe(200);
    // The upload holds its own copy: the staged one is deleted, not kept (for good, on the embedded store).
    expect(await stagedStored(service.organizationId, staged.staged_upload_id)).toBe(false);
    const upload = (await created.json()) as { id: string };
    expect(upload).toMatchObject({ original_filename: 'big.csv', valid_number_count: 120, credits_charged: 120, file_size_bytes: Buffer.byteLength(csv) });
    await service.runtime.settleWorkflows();
    // The staged object, copied inside the store as the upload's original: the same bytes, as CSV.
    const link = (await (await service.request('GET', `/api/v1/uploads/${upload.id}/download/original`)).json()) as { url: string };
    const original = await fetch(link.url);
    expect(original.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(await original.text()).toBe(csv);

    const unknown = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: '00000000-0000-4000-8000-000000000000', phone_column: 'phone' } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/No staged file/);
    const mixed = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: staged.staged_upload_id, phone_numbers: ['1'] } });
    expect(mixed.status).toBe(400);
  });

  describe('a staged upload id is used once', () => {
    async function orgWithCredits(credits: number) {
      return newCustomer({ name: 'Staged once', subscriptionActive: true, credits });
    }

    async function stageFile(key: string, numbers: number, first: number): Promise<string> {
      const staged = (await (await service.request('POST', '/api/v1/uploads/staging', { key })).json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
      const csv = ['phone', ...Array.from({ length: numbers }, (_, i) => `212-555-${String(first + i)}`)].join('\n');
      const form = new FormData();
      for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
      form.append('file', new Blob([csv], { type: 'text/csv' }), 'big.csv');
      expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
      return staged.staged_upload_id;
    }

    const create = (key: string, body: Record<string, unknown>) => service.request('POST', '/api/v1/uploads', { key, body });
    const uploadCount = async (key: string) => ((await (await service.request('GET', '/api/v1/uploads?limit=100', { key })).json()) as { data: unknown[] }).data.length;

    it('a second create with the same staged id is a 409 that charges nothing; refused creates (4xx) do not use it up', async () => {
      const { org, key } = await orgWithCredits(150);
      const id = await stageFile(key, 120, 4000);

      // Refused before any charge: the staged id stays usable, its file kept.
      expect((await create(key, { staged_upload_id: id, phone_column: 'nope' })).status).toBe(400);
      expect(await stagedStored(org.id, id)).toBe(true);
      const poor = await orgWithCredits(100);
      const poorId = await stageFile(poor.key, 120, 4200);
      expect((await create(poor.key, { staged_upload_id: poorId, phone_column: 'phone' })).status).toBe(402);
      expect(await stagedStored(poor.org.id, poorId)).toBe(true);
      await admin.addCredits(poor.org.id, 100);
      const unnamed = await create(poor.key, { staged_upload_id: poorId, phone_column: 'phone' });
      expect(unnamed.status).toBe(200);
      expect(await stagedStored(poor.org.id, poorId)).toBe(false);
      // Created without a filename: the spec's synthesized name, not one shared by every such upload.
      expect(((await unnamed.json()) as { original_filename: string }).original_filename).toMatch(/^api_upload_[0-9a-f]{16}\.csv$/);

      const first = await create(key, { staged_upload_id: id, phone_column: 'phone', filename: 'once.csv' });
      expect(first.status).toBe(200);
      const upload = (await first.json()) as { id: string; credits_charged: number };
      expect(upload.credits_charged).toBe(120);
      const balance = (await admin.showBalance(org.id)).total;
      const uploads = await uploadCount(key);

      const again = await create(key, { staged_upload_id: id, phone_column: 'phone', filename: 'twice.csv' });
      expect(again.status).toBe(409);
      const detail = ((await again.json()) as { detail: string }).detail;
      expect(detail).toContain(`staged_upload_id ${id} was already used by upload ${upload.id}`);
      expect(detail).toMatch(/POST \/api\/v1\/uploads\/staging/);
      expect((await admin.showBalance(org.id)).total).toBe(balance);
      expect(await uploadCount(key)).toBe(uploads);
      await service.runtime.settleWorkflows();
    });

    it('a staged file over 100 MB that the store let in is a 413 that charges nothing, CSV or JSON', async () => {
      const { org, key } = await orgWithCredits(200_000);
      // One byte over: the embedded store checks the policy's range against the whole form (S3
      // checks the file), so create checks the object again before anything is charged.
      const row = '212-555-0000,' + 'x'.repeat(986) + '\n';
      const over = Buffer.alloc(100 * 1024 * 1024 + 1, row);
      over.write('phone,pad\n', 0);
      for (const format of ['csv', 'json'] as const) {
        const staged = (await (await service.request('POST', `/api/v1/uploads/staging?format=${format}`, { key })).json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
        const form = new FormData();
        for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
        form.append('file', new Blob([over]), 'over.csv');
        expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
        const refused = await create(key, { staged_upload_id: staged.staged_upload_id, phone_column: 'phone' });
        expect(refused.status, format).toBe(413);
        expect(((await refused.json()) as { detail: string }).detail).toBe('The staged file is 104857601 bytes; at most 104857600 bytes (100 MB)');
      }
      expect((await admin.showBalance(org.id)).total).toBe(200_000);
      expect(await uploadCount(key)).toBe(0);
    });

    it('a staged JSON document that is not UTF-8 is a 400 that charges nothing', async () => {
      const { org, key } = await orgWithCredits(1_000);
      const staged = (await (await service.request('POST', '/api/v1/uploads/staging?format=json', { key })).json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
      const numbers = Array.from({ length: 110 }, (_, i) => `"212-555-${String(6000 + i)}"`).join(',');
      const latin1 = Buffer.concat([Buffer.from(`{"filename":"caf`), Buffer.from([0xe9]), Buffer.from(`.csv","phone_numbers":[${numbers}]}`)]);
      const form = new FormData();
      for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
      form.append('file', new Blob([latin1]), 'numbers.json');
      expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
      const refused = await create(key, { staged_upload_id: staged.staged_upload_id });
      expect(refused.status).toBe(400);
      expect(((await refused.json()) as { detail: string }).detail).toBe('The staged file is not valid JSON: it is not valid UTF-8');
      expect((await admin.showBalance(org.id)).total).toBe(1_000);
      expect(await stagedStored(org.id, staged.staged_upload_id, 'json')).toBe(true);
    });

    it('a staged JSON document is deleted once its upload is created', async () => {
      const { org, key } = await orgWithCredits(1_000);
      const staged = (await (await service.request('POST', '/api/v1/uploads/staging?format=json', { key })).json()) as { staged_upload_id: string; url: string; fields: Record<string, string> };
      const form = new FormData();
      for (const [k, v] of Object.entries(staged.fields)) form.append(k, v);
      form.append('file', new Blob([JSON.stringify({ phone_numbers: Array.from({ length: 110 }, (_, i) => `212-555-${String(7000 + i)}`) })]), 'numbers.json');
      expect((await fetch(staged.url, { method: 'POST', body: form })).status).toBeLessThan(300);
      expect(await stagedStored(org.id, staged.staged_upload_id, 'json')).toBe(true);
      expect((await create(key, { staged_upload_id: staged.staged_upload_id })).status).toBe(200);
      expect(await stagedStored(org.id, staged.staged_upload_id, 'json')).toBe(false);
      await service.runtime.settleWorkflows();
    });

    it('of creates racing with one staged id, exactly one succeeds and exactly one charge is made', async () => {
      const { org, key } = await orgWithCredits(10_000);
      const id = await stageFile(key, 110, 5000);
      const results = await Promise.all(Array.from({ length: 5 }, () => create(key, { staged_upload_id: id, phone_column: 'phone' })));
      const statuses = results.map((r) => r.status).sort();
      expect(statuses).toEqual([200, 409, 409, 409, 409]);
      expect(await stagedStored(org.id, id)).toBe(false);
      expect((await admin.showBalance(org.id)).total).toBe(10_000 - 110);
      expect(await uploadCount(key)).toBe(1);
      await service.runtime.settleWorkflows();
    });

    it('a create cut off after its claim, before its upload existed, passes the claim on once it is clearly abandoned', () => service.clock.run(async () => {
      const { org, key } = await orgWithCredits(1_000);
      const id = await stageFile(key, 110, 6000);
      const start = Date.now();
      service.clock.set(() => start);
      // The claim is taken and the process dies before the upload record (nothing charged).
      await expect(createFromStagedOnce(org.id, id, () => Promise.reject(new Error('killed')))).rejects.toThrow('killed');
      // A create that failed keeps the staged file for its retry.
      expect(await stagedStored(org.id, id)).toBe(true);
      const soon = await create(key, { staged_upload_id: id, phone_column: 'phone' });
      expect(soon.status).toBe(409);
      expect(((await soon.json()) as { detail: string }).detail).toMatch(new RegExp(`^staged_upload_id ${id} is in use by a create still under way`));
      // Long past any request's life: the retry goes on, charged once.
      service.clock.set(() => start + 3 * 60_000);
      const retried = await create(key, { staged_upload_id: id, phone_column: 'phone' });
      expect(retried.status).toBe(200);
      expect(await stagedStored(org.id, id)).toBe(false);
      expect((await admin.showBalance(org.id)).total).toBe(1_000 - 110);
      // And the staged id is now used by a real upload.
      const again = await create(key, { staged_upload_id: id, phone_column: 'phone' });
      expect(again.status).toBe(409);
      expect(((await again.json()) as { detail: string }).detail).toContain(`was already used by upload ${((await retried.json()) as { id: string }).id}`);
      await service.runtime.settleWorkflows();
    }));
  });
});
