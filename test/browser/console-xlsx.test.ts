import { readFile } from 'node:fs/promises';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { useTestService } from '../support/runtime';
import { shot, useOwnerPage } from './browser';
import { scaled } from '../support/wait';

// Excel workbooks in the console's import: the first worksheet read on the server with exceljs's
// streaming reader and converted to the CSV the pipeline processes (numbers stored as numbers come
// out whole, no exponent, no ".0"); a damaged workbook, an empty one and a sheet past the row limit
// are refused in words, with nothing charged and no draft left.

const service = useTestService();
let page: Page;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

useOwnerPage(service, (opened) => (page = opened));

/** A workbook as Excel saves one: a first sheet of `count` contacts, phone numbers stored as numbers. */
async function callList(count: number): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Spring calls');
  ws.addRow(['Name', 'Phone', 'Joined', 'Score']);
  for (let i = 0; i < count; i++) {
    const row = ws.addRow([`Lee, Ann ${i}`, 4155550000 + i * 7, new Date(Date.UTC(2026, 0, 1 + (i % 28))), { formula: `${i + 1}/8`, result: (i + 1) / 8 }]);
    row.getCell(3).numFmt = 'yyyy-mm-dd';
  }
  wb.addWorksheet('Notes').addRow(['not read']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A sheet of `rows` numbers written by exceljs's streaming writer: a few MB that unpack to many more. */
async function hugeSheet(rows: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      chunks.push(chunk);
      done();
    },
  });
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: sink, useSharedStrings: false, useStyles: false });
  const ws = wb.addWorksheet('Everyone');
  ws.addRow(['Phone']).commit();
  for (let i = 0; i < rows; i++) ws.addRow([4155550000 + (i % 9000)]).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function choose(name: string, bytes: Buffer): Promise<void> {
  await page.goto(`${service.url}/uploads/new`);
  await page.getByRole('heading', { name: 'New upload' }).waitFor();
  await page.getByLabel('CSV file or Excel workbook').setInputFiles({ name, mimeType: XLSX, buffer: bytes });
  await page.getByRole('button', { name: 'Upload file' }).click();
}

const balance = async () => ((await (await service.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;

describe('XLSX import in Chromium', () => {
  it('reads the first worksheet, numbers in full, and takes it to a processed file', async () => {
    const before = await balance();
    const workbook = await callList(150);
    await choose('spring-calls.xlsx', workbook);
    await page.getByRole('heading', { name: 'How the file was read' }).waitFor();
    await page.getByText('An Excel workbook: its first worksheet, Spring calls').waitFor();
    // The size line names both sizes: the workbook's as sent and the CSV's it became.
    await page.getByText(new RegExp(`· 150 rows · ${workbook.length.toLocaleString('en-US')} bytes as sent, [\\d,]+ as CSV$`)).waitFor();
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['Name', 'Phone', 'Joined', 'Score']);
    // Numbers stored as numbers: whole, never 4.15555E+09 or 4155550000.0; dates as days; a formula's result.
    await page.getByRole('cell', { name: '4155550000', exact: true }).waitFor();
    await page.getByRole('cell', { name: '2026-01-01', exact: true }).first().waitFor();
    await page.getByRole('cell', { name: '0.125', exact: true }).waitFor();
    expect(await page.getByRole('checkbox', { name: /^Score/ }).isChecked()).toBe(false);
    // Delimiter and encoding belong to text files: not offered for a workbook.
    expect(await page.getByLabel('Separator').count()).toBe(0);
    expect(await page.getByRole('checkbox', { name: /^Phone/ }).isChecked()).toBe(true);
    await shot(page, 'import-xlsx');
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('heading', { name: 'Confirm' }).waitFor();
    await page.getByRole('button', { name: 'Confirm and charge 150 credits' }).click();
    await page.getByText('completed', { exact: true }).waitFor({ timeout: scaled(60_000) });
    expect(before - (await balance())).toBe(150);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download processed file' }).click()]);
    const lines = (await readFile((await file.path())!, 'utf8')).trim().split(/\r?\n/);
    expect(lines).toHaveLength(151);
    expect(lines[0]).toMatch(/^Name,Phone,Joined,Score,/);
    expect(lines[1]).toMatch(/^"Lee, Ann 0",4155550000,2026-01-01,0.125,/);
    expect(lines.join('\n')).not.toMatch(/E\+|\.0,/);
    // The workbook as it was sent, and the CSV it became (the original), each under its own name.
    await page.getByText('spring-calls.xlsx (its worksheet Spring calls) was converted to CSV').waitFor();
    await shot(page, 'import-xlsx-downloads');
    const [asSent] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download spring-calls.xlsx as sent' }).click()]);
    expect(asSent.suggestedFilename()).toBe('spring-calls.xlsx');
    expect((await readFile((await asSent.path())!)).equals(workbook)).toBe(true);
    const [original] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download original (the CSV processed)' }).click()]);
    expect(original.suggestedFilename()).toBe('spring-calls_converted.csv');
    expect((await readFile((await original.path())!, 'utf8')).split(/\r?\n/)[0]).toBe('Name,Phone,Joined,Score');
  });

  it('says when formula cells were saved without their result, and what to do', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('Generated');
    ws.addRow(['Phone', 'Mobile']);
    for (let i = 0; i < 120; i++) ws.addRow([4155551000 + i, { formula: `A${i + 2}+1` }]);
    await choose('generated.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    await page.getByText('120 formula cells have no saved result (the program that wrote the file did not compute them), so they are empty here. Open the file in Excel or another spreadsheet, save it, and upload it again.').waitFor();
    await shot(page, 'import-xlsx-formulas-without-result');
  });

  it('asks about a workbook without a header row, and reads it again from the workbook as answered', async () => {
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('No header');
    for (let i = 0; i < 101; i++) ws.addRow([4155551000 + i, `Person ${i}`]);
    await choose('no-header.xlsx', Buffer.from(await wb.xlsx.writeBuffer()));
    await page.getByRole('group', { name: 'The first row looks like a contact. Is it a header row?' }).waitFor();
    expect(await page.getByRole('columnheader').allInnerTexts()).toEqual(['column_1', 'column_2']);
    await page.getByRole('radio', { name: /Yes, it holds the column names/ }).click();
    await page.getByRole('columnheader', { name: '4155551000' }).waitFor();
    await page.getByText('An Excel workbook: its first worksheet, No header').waitFor();
    await page.getByRole('radio', { name: /No, it is a contact/ }).click();
    await page.getByRole('columnheader', { name: 'column_1' }).waitFor();
    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByRole('button', { name: 'Confirm and charge 101 credits' }).waitFor();
  });

  it('refuses a damaged workbook, an empty one and a sheet past the row limit in words, charging nothing', async () => {
    const before = await balance();
    const good = await callList(120);
    await choose('damaged.xlsx', good.subarray(0, Math.floor(good.length * 0.6)));
    await page.getByRole('alert').filter({ hasText: 'The file could not be read as an Excel workbook (.xlsx): it is damaged or is not a workbook.' }).waitFor();
    await shot(page, 'import-xlsx-damaged');

    const empty = new ExcelJS.Workbook();
    empty.addWorksheet('Blank');
    await choose('empty.xlsx', Buffer.from(await empty.xlsx.writeBuffer()));
    await page.getByRole('alert').filter({ hasText: 'The workbook\'s first worksheet ("Blank") is empty; it needs a header row and at least 100 phone numbers.' }).waitFor();

    // 260,000 rows: a few MB sent, far more unpacked; refused at the 250,001st contact while streaming.
    const huge = await hugeSheet(260_000);
    await choose('everyone.xlsx', huge);
    await page.getByRole('alert').filter({ hasText: 'The worksheet has more than 250,000 rows of contacts; an upload holds at most 250,000. Split it into smaller files.' }).waitFor({ timeout: scaled(120_000) });
    await shot(page, 'import-xlsx-too-many-rows');

    expect(await balance()).toBe(before);
    await page.goto(`${service.url}/`);
    await page.getByRole('heading', { name: 'Uploads', level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    for (const name of ['damaged.xlsx', 'empty.xlsx', 'everyone.xlsx']) expect(await page.getByRole('link', { name }).count(), name).toBe(0);
  });
});
