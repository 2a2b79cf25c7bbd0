import { describe, expect, it } from 'vitest';
import { parse as csvParse } from 'csv-parse/sync';
import { useTestService } from '../../support/runtime';

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
    const numbers = [...phones(100), '=HYPERLINK("x")', '', '-2125550100', '@2125550101', ' 212 555 0102 '];
    const id = await upload({ phone_numbers: numbers });
    const original = await linkText(`/api/v1/uploads/${id}/download/original`);
    expect(read(original)).toEqual([['phone'], ...numbers.map((n) => [n])]);
    expect(original).toContain('\n+12125551000\n');
    expect(original).not.toContain("'");
    await service.runtime.settleWorkflows();
    const processed = read(await linkText(`/api/v1/uploads/${id}/download/processed`));
    expect(processed.map((row) => row[0])).toEqual(['phone', ...numbers]);
  });

  it('contacts: every cell, header included, round-trips through the original and the default processed file', async () => {
    const contacts = phones(120).map((phone, i) => ({ phone, note: hostile[i % hostile.length]!, n: i % 2 ? -5 : 3.5, [hostile[i % 3]!]: 'h' }));
    const id = await upload({ contacts, phone_column: 'phone', filename: 'cells.csv' });
    const columns = ['phone', 'note', 'n', hostile[0]!, hostile[1]!, hostile[2]!];
    const expected = [columns, ...contacts.map((c) => columns.map((k) => (k in c ? String((c as Record<string, unknown>)[k]) : '')))];
    expect(read(await linkText(`/api/v1/uploads/${id}/download/original`))).toEqual(expected);

    await service.runtime.settleWorkflows();
    const processed = read(await linkText(`/api/v1/uploads/${id}/download/processed`));
    expect(processed[0]).toEqual([...columns, 'Service_Status']);
    expect(processed.map((row) => row.slice(0, columns.length))).toEqual(expected);
  });

  it('contacts keyed __proto__, constructor or prototype: columns like any other (sent as raw JSON text)', async () => {
    const rows = phones(100).map((phone, i) => `{"phone":"${phone}","__proto__":"p${i}","constructor":{"name":"Set"},"prototype":${i}}`);
    const res = await service.request('POST', '/api/v1/uploads', { body: `{"phone_column":"phone","contacts":[${rows.join(',')}]}`, headers: { 'content-type': 'application/json' } });
    const json = (await res.json()) as { id: string; detail?: string };
    expect(res.status, json.detail).toBe(200);
    const original = read(await linkText(`/api/v1/uploads/${json.id}/download/original`));
    expect(original[0]).toEqual(['phone', '__proto__', 'constructor', 'prototype']);
    expect(original[1]).toEqual([phones(1)[0], 'p0', '{"name":"Set"}', '0']);
    expect(original).toHaveLength(101);
  });
});

const isFormula = (v: string) => /^[=+\-@\t\r]/.test(v);

describe('processed files: customer cells kept by default, neutralize_formulas=true on request', () => {
  it('multipart: default keeps the rows byte for byte; the option prefixes and quotes formula cells only; service cells always safe', async () => {
    const dangerous = ['=SUM(1)', '@x', '-5', '+cmd', '\tTab', '=HYPERLINK("http://x","y")'];
    const header = 'name,phone,-alt,note';
    const rows = phones(120).map((p, i) => {
      // Even rows hold nothing a spreadsheet would run: they must stay byte for byte in both modes.
      if (i % 2 === 0) return `"Ada, ${i}",(212) 555-${1000 + i},,"say ""hi"""`;
      const cell = dangerous[i % dangerous.length]!;
      return `Bob ${i},${p},,"${cell.replaceAll('"', '""')}"`;
    });
    const csv = [header, ...rows].join('\r\n') + '\r\n';
    const form = new FormData();
    form.append('phone_columns', 'phone,-alt');
    form.append('file', new Blob([csv], { type: 'text/csv' }), 'list.csv');
    const id = await upload(form);
    await service.runtime.settleWorkflows();

    const plain = await linkText(`/api/v1/uploads/${id}/download/processed`);
    const plainLines = plain.split('\r\n');
    expect(plainLines[0]).toBe(`${header},phone_Service_Status,"'-alt_Service_Status"`);
    rows.forEach((row, i) => expect(plainLines[i + 1]!.startsWith(`${row},`)).toBe(true));

    const safe = await linkText(`/api/v1/uploads/${id}/download/processed?neutralize_formulas=true`);
    const safeLines = safe.split('\r\n');
    expect(safeLines[0]).toBe(`name,phone,"'-alt",note,phone_Service_Status,"'-alt_Service_Status"`);
    rows.forEach((row, i) => {
      if (i % 2 === 0) expect(safeLines[i + 1]!.startsWith(`${row},`)).toBe(true);
      else expect(safeLines[i + 1]!.startsWith(`Bob ${i},"'${phones(120)[i]}",,"'`)).toBe(true);
    });
    const cells = read(safe);
    const originalCells = read(csv);
    for (let r = 0; r < originalCells.length; r++) {
      originalCells[r]!.forEach((value, c) => expect(cells[r]![c]).toBe(isFormula(value) ? `'${value}` : value));
      // The service's own cells are never formulas.
      for (const serviceCell of cells[r]!.slice(4)) expect(isFormula(serviceCell)).toBe(false);
    }
    // Asking twice gives the same kept slice; the default file is untouched by the option.
    expect(await linkText(`/api/v1/uploads/${id}/download/processed?neutralize_formulas=true`)).toBe(safe);
    expect(await linkText(`/api/v1/uploads/${id}/download/processed?neutralize_formulas=false`)).toBe(plain);
  });

  it('JSON contacts: the option neutralises +1… phones and formula cells; slices combine with it', async () => {
    const contacts = phones(110).map((phone, i) => ({ phone, note: i % 2 ? '=SUM(1)' : 'plain, "quoted"' }));
    const id = await upload({ contacts, phone_column: 'phone' });
    await service.runtime.settleWorkflows();
    const plain = read(await linkText(`/api/v1/uploads/${id}/download/processed`));
    expect(plain.slice(1).map((r) => [r[0], r[1]])).toEqual(contacts.map((c) => [c.phone, c.note]));
    const safe = read(await linkText(`/api/v1/uploads/${id}/download/processed?neutralize_formulas=true&sort=best_status`));
    expect(safe).toHaveLength(111);
    const byPhone = new Map(safe.slice(1).map((r) => [r[0]!, r[1]!]));
    for (const c of contacts) expect(byPhone.get(`'${c.phone}`)).toBe(c.note.startsWith('=') ? `'${c.note}` : c.note);
  });

  it('refuses another value, and the OpenAPI document declares the parameter', async () => {
    const { id } = ((await (await service.request('GET', '/api/v1/uploads?limit=1')).json()) as { data: { id: string }[] }).data[0]!;
    const bad = await service.request('GET', `/api/v1/uploads/${id}/download/processed?neutralize_formulas=yes`);
    expect(bad.status).toBe(400);
    const doc = (await (await fetch(`${service.url}/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string; in: string; description?: string }[] } }> };
    const param = doc.paths['/api/v1/uploads/{id}/download/processed']!.get.parameters.find((p) => p.name === 'neutralize_formulas');
    expect(param).toMatchObject({ in: 'query' });
    expect(param!.description).toMatch(/OWASP/);
  });
});
