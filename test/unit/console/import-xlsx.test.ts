import { describe, expect, it } from 'vitest';
import { crc32 } from 'node:zlib';
import ExcelJS from 'exceljs';
import { cellText, plainDate, plainNumber } from '../../../lambdas/console/cell-text';
import { columnIndex, sheetRows, type SheetContext } from '../../../lambdas/console/sheet-rows';
import { xlsxToCsv, XLSX_MAX_INFLATED_BYTES } from '../../../lambdas/console/import-xlsx';
import { isWorkbook } from '../../../lambdas/console/workbook-bytes';
import { readImport } from '../../../lambdas/console/import-file';
import { DamagedEntry, entryText, PastDeclaredSize, startsLikeZip, zipDirectory, type ZipEntry } from '../../../lambdas/console/zip-directory';
import { InvalidInput, TooLarge } from '../../../lambdas/platform/domain-errors';

// The console's XLSX import: the first worksheet as the API's CSV, streamed, refused in words.

async function textOf(chunks: AsyncIterable<string>): Promise<string> {
  let text = '';
  for await (const chunk of chunks) text += chunk;
  return text;
}

/** Every part of a zip as text, by name, in the order stored. */
async function partsOf(bytes: Buffer): Promise<Map<string, string>> {
  const entries = zipDirectory(bytes)!.entries.filter((e) => !e.name.endsWith('/'));
  return new Map(await Promise.all(entries.map(async (e) => [e.name, await textOf(entryText(bytes, e))] as const)));
}

/**
 * A zip of the parts in the order given, stored (not deflated), as some programs write them; with
 * `zip64`, every directory entry's sizes are in ZIP64 extended information (or, `'markers only'`,
 * marked so without it).
 */
function storedZip(parts: (readonly [string, string])[], zip64: false | true | 'markers only' = false): Buffer {
  const locals: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of parts) {
    const data = Buffer.from(text, 'utf8');
    const fileName = Buffer.from(name, 'utf8');
    const header = Buffer.alloc(30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(20, 4);
    header.writeUInt32LE(crc32(data), 14);
    header.writeUInt32LE(data.length, 18);
    header.writeUInt32LE(data.length, 22);
    header.writeUInt16LE(fileName.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt32LE(crc32(data), 16);
    entry.writeUInt32LE(zip64 ? 0xffffffff : data.length, 20);
    entry.writeUInt32LE(zip64 ? 0xffffffff : data.length, 24);
    entry.writeUInt16LE(fileName.length, 28);
    entry.writeUInt32LE(offset, 42);
    const extra = Buffer.alloc(zip64 === true ? 20 : 0);
    if (zip64 === true) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(16, 2);
      extra.writeBigUInt64LE(BigInt(data.length), 4);
      extra.writeBigUInt64LE(BigInt(data.length), 12);
    }
    entry.writeUInt16LE(extra.length, 30);
    locals.push(header, fileName, data);
    directory.push(entry, fileName, extra);
    offset += 30 + fileName.length + data.length;
  }
  const central = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(central.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, central, end]);
}

async function workbook(fill: (wb: ExcelJS.Workbook) => void): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  fill(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('cell text', () => {
  it('writes numbers without an exponent or ".0", integers exactly, fractions to 15 digits', () => {
    expect(plainNumber(4155550123)).toBe('4155550123');
    expect(plainNumber(14155550123)).toBe('14155550123');
    expect(plainNumber(4155550123.0)).toBe('4155550123');
    expect(plainNumber(1e21)).toBe('1000000000000000000000');
    expect(plainNumber(1.5e22)).toBe('15000000000000000000000');
    expect(plainNumber(0.1 + 0.2)).toBe('0.3');
    expect(plainNumber(1.5e-7)).toBe('0.00000015');
    expect(plainNumber(-2.5e-8)).toBe('-0.000000025');
    expect(plainNumber(-0)).toBe('0');
    expect(plainNumber(12.25)).toBe('12.25');
    for (const n of [Number.NaN, Infinity, -Infinity]) expect(plainNumber(n)).toBe('');
  });
  it('writes dates as the day, with the time when there is one', () => {
    expect(plainDate(new Date(Date.UTC(2026, 0, 5)))).toBe('2026-01-05');
    expect(plainDate(new Date(Date.UTC(2026, 10, 26, 4, 5, 6)))).toBe('2026-11-26 04:05:06');
    expect(plainDate(new Date(Number.NaN))).toBe('');
  });
  it('reads every kind of value a cell holds', () => {
    expect(cellText('(415) 555-0100')).toBe('(415) 555-0100');
    expect(cellText(true)).toBe('TRUE');
    expect(cellText(false)).toBe('FALSE');
    expect(cellText(null)).toBe('');
    expect(cellText(undefined)).toBe('');
    expect(cellText({ error: '#N/A' })).toBe('#N/A');
    expect(cellText(Symbol('x'))).toBe('');
  });
});

describe('sheet rows', () => {
  const context: SheetContext = { sharedString: (i) => ['zero', 'rich'][i], dateStyle: (s) => (s === 3 ? 'date' : s === 4 ? 'time' : s === 5 ? 'duration' : null), toDate: (n) => new Date(Date.UTC(1899, 11, 30) + n * 86_400_000) };
  const rowsOf = async (sheetData: string, chunk = 7) => {
    const xml = `<?xml version="1.0"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${sheetData}</sheetData></worksheet>`;
    // Cut into small chunks: every tag and value is split somewhere.
    const chunks = Array.from({ length: Math.ceil(xml.length / chunk) }, (_, i) => xml.slice(i * chunk, (i + 1) * chunk));
    const rows: unknown[][] = [];
    for await (const row of sheetRows((async function* () { yield* chunks; })(), context)) rows.push(row);
    return rows;
  };

  it('gives each cell the value its type says, a formula its result as typed', async () => {
    const rows = await rowsOf(
      '<row r="1"><c r="A1" t="s"><v>0</v></c><c r="B1" t="s"><v>1</v></c><c r="C1" t="inlineStr"><is><r><t>in</t></r><r><t xml:space="preserve">line &amp; more</t></r><rPh><t>ignored</t></rPh></is></c><c r="D1" t="str"><f>A1&amp;""</f><v>zero</v></c></row>' +
        '<row r="2"><c r="A2"><f>A1-A1</f><v>0</v></c><c r="B2" t="b"><f>1=1</f><v>1</v></c><c r="C2" t="b"><v>0</v></c><c r="D2" t="e"><f>1/0</f><v>#DIV/0!</v></c><c r="E2" s="3"><f>TODAY()</f><v>46027</v></c><c r="F2" s="3"><v>46027.5</v></c><c r="G2"><v>4155550100</v></c><c r="H2" t="d"><v>2026-01-05T00:00:00Z</v></c><c r="I2"><f>SUM(A1:A2)</f></c></row>',
    );
    expect(rows[0]).toEqual(['zero', 'rich', 'inline & more', 'zero']);
    expect(rows[1]).toEqual([0, true, false, { error: '#DIV/0!' }, new Date(Date.UTC(2026, 0, 5)), new Date(Date.UTC(2026, 0, 5, 12)), 4155550100, new Date(Date.UTC(2026, 0, 5))]);
    expect(rows[1]!.map((v) => cellText(v))).toEqual(['0', 'TRUE', 'FALSE', '#DIV/0!', '2026-01-05', '2026-01-05 12:00:00', '4155550100', '2026-01-05']);
  });

  it('places cells by their column, leaves holes for empty ones, and skips rows left out or only formatted', async () => {
    const rows = await rowsOf(
      '<row r="1"><c r="B1"><v>2</v></c><c r="AB1"><v>28</v></c></row><row r="5"><c><v>1</v></c><c/><c><v>3</v></c><c r="E5" s="1"/></row><row r="6"/><row r="7" ht="20" customFormat="1"><c r="A7" s="2"/><c r="B7" t="inlineStr"><is><t></t></is></c></row>',
      3,
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]!.length).toBe(28);
    expect([rows[0]![0], rows[0]![1], rows[0]![27]]).toEqual([undefined, 2, 28]);
    // A cell without a reference goes after the one before it, empty or not.
    expect(rows[1]).toEqual([1, undefined, 3]);
    expect([columnIndex('A1'), columnIndex('Z9'), columnIndex('AA1'), columnIndex('xfd1'), columnIndex('12')]).toEqual([0, 25, 26, 16383, null]);
  });

  it('reads elements written with a namespace prefix, as the Open XML SDK writes them', async () => {
    const rows = await rowsOf('<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>Phone</x:t></x:is></x:c><x:c r="B1"><x:v>4155550100</x:v></x:c></x:row>');
    expect(rows).toEqual([['Phone', 4155550100]]);
  });

  it('fails on XML that is not well formed', async () => {
    await expect(rowsOf('<row r="1"><c><v>1</c></row>')).rejects.toThrow();
  });
});

describe('zip directory', () => {
  it('lists an xlsx and declares sizes; refuses what is not a zip or is cut short', async () => {
    const bytes = await workbook((wb) => wb.addWorksheet('Calls').addRow(['Phone']));
    expect(startsLikeZip(bytes)).toBe(true);
    const names = zipDirectory(bytes)!.entries.map((e) => e.name);
    expect(names).toContain('xl/workbook.xml');
    expect(names).toContain('xl/worksheets/sheet1.xml');
    expect(zipDirectory(bytes.subarray(0, bytes.length - 30))).toBeNull();
    expect(zipDirectory(Buffer.from('Phone\n4155550100\n'))).toBeNull();
    expect(zipDirectory(Buffer.alloc(0))).toBeNull();
  });
});

describe('xlsxToCsv', () => {
  it('reads the first worksheet, numbers stored as numbers in full, with its name', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Spring calls');
      ws.addRow(['Name', 'Phone', 'Joined', 'VIP', 'Score']);
      ws.addRow(['Ann, "A"', 4155550100, new Date(Date.UTC(2026, 2, 1)), true, 0.1 + 0.2]);
      ws.addRow([{ richText: [{ text: 'Bo' }, { text: 'b' }] }, '(415) 555-0101', null, false, { formula: 'B2*1', result: 4155550100 }]);
      ws.addRow(['=cmd', 14155550102]);
      wb.addWorksheet('Other').addRow(['ignored']);
    });
    const { csv, sheet, rows } = await xlsxToCsv(bytes);
    expect(sheet).toBe('Spring calls');
    expect(rows).toBe(4);
    expect(csv.toString('utf8')).toBe(
      ['Name,Phone,Joined,VIP,Score', '"Ann, ""A""",4155550100,2026-03-01,TRUE,0.3', 'Bob,(415) 555-0101,,FALSE,4155550100', '=cmd,14155550102', ''].join('\r\n'),
    );
  });

  it("reads a formula's result as Excel shows it: 0, TRUE, an error, a date, text", async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Formulas');
      ws.addRow(['zero', 'bool', 'error', 'date', 'text']);
      const row = ws.addRow([{ formula: 'A1-A1', result: 0 }, { formula: '1=1', result: true }, { formula: '1/0', result: { error: '#DIV/0!' } }, { formula: 'TODAY()', result: new Date(Date.UTC(2026, 0, 5)) }, { formula: 'A1&""', result: 'zero' }]);
      row.getCell(4).numFmt = 'yyyy-mm-dd';
    });
    expect((await xlsxToCsv(bytes)).csv.toString('utf8')).toBe('zero,bool,error,date,text\r\n0,TRUE,#DIV/0!,2026-01-05,zero\r\n');
  });

  it('counts formulas saved without their result (they read as empty), as programs other than Excel save them', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Computed');
      ws.addRow(['Phone', 'Name']);
      // exceljs, like openpyxl, writes a formula without a result unless one is given.
      for (let i = 0; i < 3; i++) ws.addRow([{ formula: `"41555501"&TEXT(${i},"00")` }, `Person ${i}`]);
      ws.addRow([{ formula: '4155550199*1', result: 4155550199 }, 'Saved']);
    });
    const read = await xlsxToCsv(bytes);
    expect(read.formulasWithoutResult).toBe(3);
    expect(read.csv.toString('utf8').split('\r\n').slice(1, 5)).toEqual([',Person 0', ',Person 1', ',Person 2', '4155550199,Saved']);
    expect((await readImport(bytes)).format.workbook).toEqual({ sheet: 'Computed', formulas_without_result: 3 });
  });

  it('stops reading at the row limit while streaming, and at the byte limit', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Big');
      ws.addRow(['Phone']);
      for (let i = 0; i < 3000; i++) ws.addRow([4155550000 + i]);
    });
    await expect(xlsxToCsv(bytes, { rows: 1001, bytes: 1e9 })).rejects.toThrow(/more than 1,000 rows of contacts; an upload holds at most 250,000/);
    await expect(xlsxToCsv(bytes, { rows: 1e6, bytes: 1000 })).rejects.toBeInstanceOf(TooLarge);
    expect((await xlsxToCsv(bytes, { rows: 3001, bytes: 1e9 })).rows).toBe(3001);
  });

  it('reads the first tab, wherever its part is stored, named or listed', async () => {
    const bytes = await workbook((wb) => {
      for (const name of ['Stored first', 'First tab']) wb.addWorksheet(name).addRow([`${name} cell`, 4155550100]);
    });
    const parts = await partsOf(bytes);
    // The tabs swapped in the workbook (the second part is now the first tab), its part named by an
    // absolute target, the workbook stored first and with other letter cases, as other programs save.
    const book = parts.get('xl/workbook.xml')!;
    const [one, two] = [...book.matchAll(/<sheet [^>]*\/>/g)].map((m) => m[0]);
    parts.set('xl/workbook.xml', book.replace(`${one}${two}`, `${two}${one}`));
    parts.set('xl/_rels/workbook.xml.rels', parts.get('xl/_rels/workbook.xml.rels')!.replace('Target="worksheets/sheet2.xml"', 'Target="/xl/Worksheets/Sheet2.xml"'));
    const renamed = new Map([...parts].map(([name, text]) => [name === 'xl/worksheets/sheet2.xml' ? 'XL/worksheets/sheet2.xml' : name, text]));
    const order = ['xl/workbook.xml', ...[...renamed.keys()].filter((n) => n !== 'xl/workbook.xml')];
    const { csv, sheet } = await xlsxToCsv(storedZip(order.map((name) => [name, renamed.get(name)!])));
    expect(sheet).toBe('First tab');
    expect(csv.toString('utf8')).toBe('First tab cell,4155550100\r\n');
    // A part the relationships name but the zip lacks: damaged, in words.
    await expect(xlsxToCsv(storedZip([...parts].filter(([name]) => name !== 'xl/worksheets/sheet2.xml')))).rejects.toThrow(/could not be read as an Excel workbook/);
  });

  it('reads workbooks as other programs write them: no styles part, the workbook elsewhere, a hidden first tab, formatted empty rows', async () => {
    const bytes = await workbook((wb) => {
      wb.addWorksheet('Lists').addRow(['West']);
      const ws = wb.addWorksheet('Contacts');
      ws.addRow(['Phone', 'Count']);
      ws.addRow([4155550100, 3]);
    });
    const parts = await partsOf(bytes);
    // The first tab hidden (Excel opens on the second); the styles part and its relationship gone;
    // a row of formatted empty cells after the contacts (a pre-formatted range).
    parts.set('xl/workbook.xml', parts.get('xl/workbook.xml')!.replace(/(<sheet [^>]*name="Lists"[^>]*state=")visible"/, '$1hidden"'));
    parts.delete('xl/styles.xml');
    parts.set('xl/_rels/workbook.xml.rels', parts.get('xl/_rels/workbook.xml.rels')!.replace(/<Relationship [^>]*Target="styles.xml"\/>/, ''));
    parts.set('xl/worksheets/sheet2.xml', parts.get('xl/worksheets/sheet2.xml')!.replace('</sheetData>', '<row r="9" customFormat="1"><c r="A9" s="1"/><c r="B9" s="1"/></row></sheetData>'));
    // The workbook part under another name, found through the package's relationships.
    const moved = new Map([...parts].map(([name, text]) => [name === 'xl/workbook.xml' ? 'xl/book.xml' : name === 'xl/_rels/workbook.xml.rels' ? 'xl/_rels/book.xml.rels' : name, text]));
    moved.set('_rels/.rels', moved.get('_rels/.rels')!.replace('Target="xl/workbook.xml"', 'Target="xl/book.xml"'));
    const { csv, sheet, rows } = await xlsxToCsv(storedZip([...moved]));
    expect(sheet).toBe('Contacts');
    expect(rows).toBe(2);
    expect(csv.toString('utf8')).toBe('Phone,Count\r\n4155550100,3\r\n');
  });

  it('reads sizes a directory keeps as ZIP64 extended information, and refuses ZIP64 markers without them as damaged', async () => {
    const parts = [...(await partsOf(await workbook((wb) => wb.addWorksheet('Wide').addRow(['Phone', 4155550100]))))];
    expect((await xlsxToCsv(storedZip(parts, true))).csv.toString('utf8')).toBe('Phone,4155550100\r\n');
    await expect(xlsxToCsv(storedZip(parts, 'markers only'))).rejects.toThrow(/could not be read as an Excel workbook/);
  });

  it('keeps every character whole where the inflated text is cut into chunks', async () => {
    // Thousands of distinct non-ASCII strings: the shared strings inflate in many 16 KB chunks, and
    // a chunk ends inside a character again and again (exceljs decodes each chunk alone).
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Names');
      for (let i = 0; i < 5000; i++) ws.addRow([`Zoë Ünal-Łukasz 日本 ${i}`, 4155550000 + i]);
    });
    const text = (await xlsxToCsv(bytes)).csv.toString('utf8');
    expect(text).not.toContain('\uFFFD');
    expect(text.split('\r\n')[4999]).toBe('Zoë Ünal-Łukasz 日本 4999,4155554999');
  });

  it('reads a part through the directory as text, never past its declared size nor from elsewhere', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('S');
      for (let i = 0; i < 500; i++) ws.addRow([4155550000 + i]);
    });
    const sheet = zipDirectory(bytes)!.entries.find((e) => e.name === 'xl/worksheets/sheet1.xml')!;
    const read = (entry: ZipEntry, from = bytes) => textOf(entryText(from, entry));
    const xml = await read(sheet);
    expect(Buffer.byteLength(xml)).toBe(sheet.uncompressedBytes);
    expect(xml).toContain('<v>4155550499</v>');
    await expect(read({ ...sheet, uncompressedBytes: 1000 })).rejects.toBeInstanceOf(PastDeclaredSize);
    await expect(read({ ...sheet, offset: sheet.offset + 1 })).rejects.toBeInstanceOf(DamagedEntry);
    await expect(read({ ...sheet, method: 12 })).rejects.toBeInstanceOf(DamagedEntry);
    await expect(read({ ...sheet, compressedBytes: bytes.length })).rejects.toBeInstanceOf(DamagedEntry);
    const stored = storedZip([['a.xml', 'é'.repeat(10)]]);
    const [entry] = zipDirectory(stored)!.entries;
    expect(await read(entry!, stored)).toBe('é'.repeat(10));
    await expect(read({ ...entry!, uncompressedBytes: 19 }, stored)).rejects.toBeInstanceOf(PastDeclaredSize);
  });

  it('refuses a workbook whose directory understates a sheet (a bomb that lies), stopped once past what it declares', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('S');
      for (let i = 0; i < 500; i++) ws.addRow([4155550000 + i]);
    });
    const forged = Buffer.from(bytes);
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    for (let at = 0; at < forged.length - 46; at++) {
      if (forged.readUInt32LE(at) === 0x02014b50 && forged.subarray(at + 46, at + 46 + name.length).equals(name)) forged.writeUInt32LE(100, at + 24);
    }
    await expect(xlsxToCsv(forged)).rejects.toThrow(/or more than it says/);
  });

  it('refuses a workbook that declares more inflated bytes than it may hold, before inflating it', async () => {
    const bytes = await workbook((wb) => wb.addWorksheet('S').addRow(['Phone']));
    // The central directory's declared size of the worksheet, raised (a bomb's signature).
    const forged = Buffer.from(bytes);
    const name = Buffer.from('xl/worksheets/sheet1.xml');
    for (let at = 0; at < forged.length - 46; at++) {
      if (forged.readUInt32LE(at) === 0x02014b50 && forged.subarray(at + 46, at + 46 + name.length).equals(name)) forged.writeUInt32LE(XLSX_MAX_INFLATED_BYTES + 1, at + 24);
    }
    await expect(xlsxToCsv(forged)).rejects.toThrow(/too large to read/);
  });

  it('refuses a damaged workbook, an empty one, an .xls and a zip that is no workbook, in words', async () => {
    const good = await workbook((wb) => {
      const ws = wb.addWorksheet('S');
      for (let i = 0; i < 200; i++) ws.addRow([`Person ${i}`, 4155550000 + i]);
    });
    const cut = good.subarray(0, Math.floor(good.length / 2));
    const scrambled = Buffer.from(good);
    for (let i = 200; i < scrambled.length - 400; i += 7) scrambled[i] = scrambled[i]! ^ 0x5a;
    for (const bad of [cut, scrambled]) await expect(xlsxToCsv(bad)).rejects.toThrow(/could not be read as an Excel workbook/);
    const empty = await workbook((wb) => wb.addWorksheet('Nothing'));
    await expect(xlsxToCsv(empty)).rejects.toThrow(/first worksheet \("Nothing"\) is empty/);
    const noSheet = await workbook(() => undefined);
    await expect(xlsxToCsv(noSheet)).rejects.toBeInstanceOf(InvalidInput);
    const xls = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1, 0, 0, 0, 0]);
    expect(isWorkbook(xls)).toBe(true);
    await expect(xlsxToCsv(xls)).rejects.toThrow(/Excel 97-2003 workbook \(\.xls\), or an Excel workbook saved with a password; neither can be read/);
    const zipNotWorkbook = Buffer.from(good);
    zipNotWorkbook.write('xl/workbooX.xml', zipNotWorkbook.lastIndexOf('xl/workbook.xml'));
    await expect(xlsxToCsv(zipNotWorkbook)).rejects.toThrow(/could not be read as an Excel workbook/);
  });
});

describe('readImport', () => {
  it('reads a workbook as the API CSV with what was read, and text as before', async () => {
    const bytes = await workbook((wb) => {
      const ws = wb.addWorksheet('Calls');
      for (let i = 0; i < 3; i++) ws.addRow([4155550100 + i, `Person ${i}`]);
    });
    const asData = await readImport(bytes);
    expect(asData.format.workbook).toEqual({ sheet: 'Calls', formulas_without_result: 0 });
    expect(asData.format.converted).toBe(true);
    // No header: the first row is a number, so it is a contact; columns named column_1…
    expect(asData.format.header_row).toBe(false);
    expect(asData.csv.toString('utf8').split('\r\n').slice(0, 2)).toEqual(['column_1,column_2', '4155550100,Person 0']);
    const asHeader = await readImport(bytes, { header_row: true });
    expect(asHeader.csv.toString('utf8').split('\r\n')[0]).toBe('4155550100,Person 0');
    const text = await readImport(Buffer.from('Phone;Name\r\n4155550100;A\r\n'));
    expect(text.format.workbook).toBeUndefined();
    expect(text.format.delimiter).toBe(';');
  });
});
