import { describe, expect, it } from 'vitest';
import { parse as csvParse } from 'csv-parse/sync';
import { useTestService } from '../../support/runtime';
import { settleWorkflows } from '../../../local/workflow';

// Customer values must come back exactly as sent (issue 14, item 8): the original keeps them, the
// processed file keeps them by default, and only neutralize_formulas=true applies OWASP's
// CSV-injection defence to them. Read back with an independent CSV reader (csv-parse).

const service = useTestService();

const phones = (n: number) => Array.from({ length: n }, (_, i) => `+1212555${String(1000 + i).padStart(4, '0')}`);

/** Values a spreadsheet or a naive writer would mangle. */
const hostile = ['=SUM(1)', '@x', '-5', '+1 (212) 555', 'a,b', 'say "hi"', 'line1\nline2', 'cr\r\nlf', '  spaced  ', '\tTab', 'Zoë ✓ 日本 🎉', "'quoted", '', '\uFEFFbom'];

interface Link {
  url: string;
}

async function getText(url: string): Promise<string> {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
}

async function linkText(path: string): Promise<string> {
  const res = await service.request('GET', path);
  expect(res.status).toBe(200);
  return getText(((await res.json()) as Link).url);
}

const read = (text: string) => csvParse(text, { relax_column_count: true, skip_empty_lines: false, bom: false }) as string[][];

async function upload(body: FormData | unknown): Promise<string> {
  const res =
    body instanceof FormData
      ? await fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body, headers: { authorization: `Bearer ${service.apiKey}` } })
      : await service.request('POST', '/api/v1/uploads', { body });
  const json = (await res.json()) as { id: string; detail?: string };
  expect(res.status, json.detail).toBe(200);
  return json.id;
}

describe('JSON uploads keep the customer values exactly', () => {
  it('phone_numbers: the original holds each number as sent, +1… included', async () => {
    const numbers = [...phones(100), '=HYPERLINK("x")', '-2125550100', '@2125550101'];
    const id = await upload({ phone_numbers: numbers });
    const original = await linkText(`/api/v1/uploads/${id}/download/original`);
    expect(read(original)).toEqual([['phone'], ...numbers.map((n) => [n])]);
    expect(original).toContain('\n+12125551000\n');
    expect(original).not.toContain("'");
  });

  it('contacts: every cell, header included, round-trips through the original and the default processed file', async () => {
    const contacts = phones(120).map((phone, i) => ({ phone, note: hostile[i % hostile.length]!, n: i % 2 ? -5 : 3.5, [hostile[i % 3]!]: 'h' }));
    const id = await upload({ contacts, phone_column: 'phone', filename: 'cells.csv' });
    const columns = ['phone', 'note', 'n', hostile[0]!, hostile[1]!, hostile[2]!];
    const expected = [columns, ...contacts.map((c) => columns.map((k) => (k in c ? String((c as Record<string, unknown>)[k]) : '')))];
    expect(read(await linkText(`/api/v1/uploads/${id}/download/original`))).toEqual(expected);

    await settleWorkflows();
    const processed = read(await linkText(`/api/v1/uploads/${id}/download/processed`));
    expect(processed[0]).toEqual([...columns, 'Service_Status']);
    expect(processed.map((row) => row.slice(0, columns.length))).toEqual(expected);
  });
});
