import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import { settleWorkflows } from '../../../local/workflow';

const service = useTestService();

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

    const created = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: staged.staged_upload_id, phone_column: 'phone', filename: 'big.csv' } });
    expect(created.status).toBe(200);
    expect(await created.json()).toMatchObject({ original_filename: 'big.csv', valid_number_count: 120, credits_charged: 120 });
    await settleWorkflows();

    const unknown = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: '00000000-0000-4000-8000-000000000000', phone_column: 'phone' } });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { detail: string }).detail).toMatch(/No staged file/);
    const mixed = await service.request('POST', '/api/v1/uploads', { body: { staged_upload_id: staged.staged_upload_id, phone_numbers: ['1'] } });
    expect(mixed.status).toBe(400);
  });
});
