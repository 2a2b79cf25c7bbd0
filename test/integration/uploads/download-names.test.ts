import { describe, expect, it } from 'vitest';
import { parse as parseDisposition } from 'content-disposition';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../../support/runtime';
import { db, tableName } from '../../../lambdas/platform/table';
import { uploadItemKey } from '../../../lambdas/uploads/upload-repository';

// Signed download links carry the upload's name in Content-Disposition (RFC 6266): an ASCII
// `filename` fallback and `filename*` (RFC 8187) with the exact name. Names come from customers
// and may hold any Unicode, control characters, quotes or be very long (issue 14, item 9).

const service = useTestService();

const phones = Array.from({ length: 100 }, (_, i) => `+1212555${String(2000 + i)}`);

async function createNamed(filename: string): Promise<string> {
  const res = await service.request('POST', '/api/v1/uploads', { body: { phone_numbers: phones, filename } });
  const body = (await res.json()) as { id: string; detail?: string; original_filename: string };
  expect(res.status, body.detail).toBe(200);
  expect(body.original_filename).toBe(filename);
  return body.id;
}

async function download(path: string): Promise<{ header: string; name: string; body: string }> {
  const link = await service.request('GET', path);
  expect(link.status).toBe(200);
  const res = await fetch(((await link.json()) as { url: string }).url);
  expect(res.status).toBe(200);
  const header = res.headers.get('content-disposition') ?? '';
  const parsed = parseDisposition(header);
  expect(parsed.type).toBe('attachment');
  return { header, name: parsed.parameters.filename!, body: await res.text() };
}

describe('download names', () => {
  it('a non-ASCII name: the link works and the header gives the exact name, with an ASCII fallback', async () => {
    const id = await createNamed('Liste été 2026 ✓.csv');
    const original = await download(`/api/v1/uploads/${id}/download/original`);
    expect(original.name).toBe('Liste été 2026 ✓.csv');
    expect(original.body.split('\n')[1]).toBe(phones[0]);
    expect(original.header).toMatch(/^attachment; filename="[\x20-\x7e]+"; filename\*=UTF-8''[\x21-\x7e]+$/);
    expect(parseDisposition(original.header, { extended: false }).parameters.filename).toBe('Liste ete 2026 _.csv');

    await service.runtime.settleWorkflows();
    expect((await download(`/api/v1/uploads/${id}/download/processed`)).name).toBe('Liste été 2026 ✓_processed.csv');
    expect((await download(`/api/v1/uploads/${id}/download/processed?include_identity=true`)).name).toBe('Liste été 2026 ✓_processed.csv');
    expect((await download(`/api/v1/uploads/${id}/download/processed-filtered`)).name).toBe('Liste été 2026 ✓_processed_filtered.csv');
  });

  it('control characters are removed; quotes kept in filename*, replaced in the fallback; separators replaced', async () => {
    // Create refuses such a name now (docs/uploads.md); an upload created before the rule may hold one.
    const id = await createNamed('Report.csv');
    const stored = 'Report\r\n"Q3"\t\u0000 a/b\\c \u202Efdp.csv';
    await db().send(new UpdateCommand({ TableName: tableName(), Key: uploadItemKey(id), UpdateExpression: 'SET original_filename = :name', ExpressionAttributeValues: { ':name': stored } }));
    const { header, name } = await download(`/api/v1/uploads/${id}/download/original`);
    expect(name).toBe('Report"Q3" a_b_c fdp.csv');
    expect(parseDisposition(header, { extended: false }).parameters.filename).toBe('Report_Q3_ a_b_c fdp.csv');
    expect(header).not.toMatch(/[\x00-\x1f\x7f]/);
  });

  it('a very long name is cut to 255 UTF-8 bytes, keeping its beginning and its end', async () => {
    const long = `${'Été ✓ '.repeat(50)}`.slice(0, 251) + '.csv';
    expect(long).toHaveLength(255);
    const id = await createNamed(long);
    const { name } = await download(`/api/v1/uploads/${id}/download/original`);
    expect(Buffer.byteLength(name)).toBeLessThanOrEqual(255);
    expect(long.startsWith(name.split('…')[0]!)).toBe(true);
    expect(name.split('…')[0]!.length).toBeGreaterThan(50);
    expect(name.endsWith(long.slice(-20))).toBe(true);

    await service.runtime.settleWorkflows();
    const processed = await download(`/api/v1/uploads/${id}/download/processed`);
    expect(Buffer.byteLength(processed.name)).toBeLessThanOrEqual(255);
    expect(processed.name.endsWith(`${long.slice(-14, -4)}_processed.csv`)).toBe(true);
  });

  it('a plain ASCII name needs no filename*', async () => {
    const id = await createNamed('contacts-2026.csv');
    const { header, name } = await download(`/api/v1/uploads/${id}/download/original`);
    expect(header).toBe('attachment; filename="contacts-2026.csv"');
    expect(name).toBe('contacts-2026.csv');
  });
});
