import { describe, expect, it } from 'vitest';
import { consoleToken } from '../../support/console-token';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { readCsv } from '../../../lambdas/uploads/csv-text';

// The forgiving import over HTTP: the console converts what it is sent (delimiter, encoding, a
// missing header) before validation; POST /uploads/{id}/format reads it again another way.
// The public API keeps the spec's CSV rules.

const service = useTestService();

async function call(token: string, method: string, path: string, body?: unknown, raw?: Buffer) {
  const res = await fetch(`${service.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': raw ? 'text/csv' : 'application/json' },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const rows = (sep: string, n: number, header = true) =>
  [...(header ? [`Name${sep}Phone`] : []), ...Array.from({ length: n }, (_, i) => `Ann ${i}${sep}(212) ${300 + (i % 600)}-${String(2000 + i).padStart(4, '0')}`)].join('\n') + '\n';

describe('console import formats', () => {
  it('validates and prices a semicolon file as the comma file it was converted to; the API itself still reads it as one column', async () => {
    const token = await consoleToken(service, service.userId);
    const started = await call(token, 'POST', '/uploads?filename=semi.csv', undefined, Buffer.from(rows(';', 120)));
    expect(started.status).toBe(200);
    const draft = started.body.draft;
    expect(draft.header).toEqual(['Name', 'Phone']);
    expect(draft.import).toMatchObject({ delimiter: ';', encoding: 'utf-8', header_row: true, converted: true, rows_problem: null });
    const mapped = await call(token, 'POST', `/uploads/${draft.id}/mapping`, { phone_columns: ['Phone'] });
    expect(mapped.body.draft.validation).toMatchObject({ valid_number_count: 120, price: { standard: 120, max: 180 } });
    // The API's own CSV rules: the same bytes are one column there.
    expect(readCsv(Buffer.from(rows(';', 120))).records[0]!.fields).toEqual(['Name;Phone']);
  });

  it('reads a header-less file again as having a header when asked, clearing mapping and validation; refuses hostile choices and other organizations', async () => {
    const token = await consoleToken(service, service.userId);
    const started = await call(token, 'POST', '/uploads?filename=nohead.csv', undefined, Buffer.from(rows(',', 100, false)));
    const id = started.body.draft.id as string;
    expect(started.body.draft).toMatchObject({ header: ['column_1', 'column_2'], total_rows: 100, import: { header_row: false, first_row_looks_like_data: true, rows_problem: null } });
    await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['column_2'] });
    const reread = await call(token, 'POST', `/uploads/${id}/format`, { header_row: true });
    expect(reread.status).toBe(200);
    expect(reread.body.draft).toMatchObject({ status: 'pending_mapping', header: ['Ann 0', '(212) 300-2000'], total_rows: 99, mapping: null, validation: null, import: { header_row: true, rows_problem: { kind: 'too_few' } } });
    expect((await call(token, 'POST', `/uploads/${id}/format`, { delimiter: ':' })).status).toBe(400);
    expect((await call(token, 'POST', `/uploads/${id}/format`, { encoding: 'ebcdic' })).status).toBe(400);
    const other = await newCustomer({ name: 'Other import', subscriptionActive: true, credits: 0, keys: 0 });
    expect((await call(await consoleToken(service, other.user.id), 'POST', `/uploads/${id}/format`, {})).status).toBe(404);
    // Read as UTF-16, bytes that are not: refused in words naming the detected encoding; the draft stays as it was.
    const wrong = await call(token, 'POST', `/uploads/${id}/format`, { encoding: 'utf-16be' });
    expect(wrong).toMatchObject({ status: 400, body: { detail: 'Read as UTF-16 BE the file has no line breaks, so that is not its encoding; UTF-8 (detected) reads it' } });
    expect((await call(token, 'GET', `/uploads/${id}`)).body.draft).toMatchObject({ header: ['Ann 0', '(212) 300-2000'], import: { encoding: 'utf-8' } });
  });

  it('refuses a binary file (an image sent as CSV) in words, keeping no draft', async () => {
    const token = await consoleToken(service, service.userId);
    const before = (await call(token, 'GET', '/uploads')).body.drafts.length as number;
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from('IHDR'), Buffer.alloc(2048, 0x41)]);
    const refused = await call(token, 'POST', '/uploads?filename=photo.csv', undefined, png);
    expect(refused).toMatchObject({ status: 400, body: { detail: 'The file holds binary data, not text (a NUL character on line 3): choose a CSV file or an Excel workbook (.xlsx)' } });
    expect((await call(token, 'GET', '/uploads')).body.drafts).toHaveLength(before);
  });

  it('confirmed, a draft cannot be read another way (409)', async () => {
    const token = await consoleToken(service, service.userId);
    const started = await call(token, 'POST', '/uploads?filename=tab.csv', undefined, Buffer.from(rows('\t', 110)));
    const id = started.body.draft.id as string;
    await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['Phone'] });
    const confirmed = await call(token, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 110 });
    expect(confirmed.status).toBe(200);
    expect((await call(token, 'POST', `/uploads/${id}/format`, { delimiter: ',' })).status).toBe(409);
  });

  it('a converted upload offers the file as it was sent beside the CSV processed, each under its own name', async () => {
    const token = await consoleToken(service, service.userId);
    const sent = Buffer.from(rows('\t', 110));
    const started = await call(token, 'POST', '/uploads?filename=call%20list.txt', undefined, sent);
    const id = started.body.draft.id as string;
    await call(token, 'POST', `/uploads/${id}/mapping`, { phone_columns: ['Phone'] });
    expect((await call(token, 'POST', `/uploads/${id}/confirm`, { validation_tier: 'standard', expected_credits: 110 })).status).toBe(200);
    const page = await call(token, 'GET', `/uploads/${id}`);
    expect(page.body.sent).toEqual({ filename: 'call list.txt', workbook_sheet: null, encoding: 'utf-8', delimiter: '\t' });
    const fetched = async (kind: string) => {
      const link = await call(token, 'GET', `/uploads/${id}/download/${kind}`);
      expect(link.status, kind).toBe(200);
      const file = await fetch(link.body.url as string);
      return { bytes: Buffer.from(await file.arrayBuffer()), disposition: file.headers.get('content-disposition') ?? '' };
    };
    const asSent = await fetched('sent');
    expect(asSent.bytes.equals(sent)).toBe(true);
    expect(asSent.disposition).toContain('call list.txt');
    // The original is the CSV processed, named as one (not CSV text under the .txt name).
    const original = await fetched('original');
    expect(readCsv(original.bytes).records[0]!.fields).toEqual(['Name', 'Phone']);
    expect(original.disposition).toContain('call list_converted.csv');
    // An upload the console did not convert: nothing else was sent, `sent` is the original.
    const plain = await call(token, 'POST', '/uploads?filename=plain.csv', undefined, Buffer.from(rows(',', 110)));
    await call(token, 'POST', `/uploads/${plain.body.draft.id}/mapping`, { phone_columns: ['Phone'] });
    await call(token, 'POST', `/uploads/${plain.body.draft.id}/confirm`, { validation_tier: 'standard', expected_credits: 110 });
    expect((await call(token, 'GET', `/uploads/${plain.body.draft.id}`)).body.sent).toBeNull();
    await service.runtime.settleWorkflows();
  });
});
