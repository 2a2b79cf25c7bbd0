import { describe, expect, it } from 'vitest';
import { decodeAs, detectDelimiter, detectEncoding, looksLikeData, parseDelimited, rowsProblem, toApiCsv } from '../../../lambdas/console/import-format';
import { readCsv } from '../../../lambdas/uploads/csv-text';

// The console's forgiving import: what a person saves is read as the API's CSV, or refused in plain words.

const people = (sep: string, n = 3) => ['Name' + sep + 'Phone' + sep + 'City', ...Array.from({ length: n }, (_, i) => `P${i}${sep}(415) 555-${String(1000 + i)}${sep}Zürich`)].join('\r\n') + '\r\n';

describe('detectEncoding', () => {
  it('tells UTF-8 (with or without BOM), UTF-16 by its BOM, and Windows-1252 when the bytes are not UTF-8', () => {
    expect(detectEncoding(Buffer.from('a,b\n', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.from('\uFEFFa,b\n', 'utf8'))).toBe('utf-8');
    expect(detectEncoding(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('a,b\n', 'utf16le')]))).toBe('utf-16le');
    expect(detectEncoding(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('a,b\n', 'utf16le').swap16()]))).toBe('utf-16be');
    expect(detectEncoding(Buffer.from([0x4d, 0xfc, 0x6c, 0x6c, 0x65, 0x72]))).toBe('windows-1252');
  });
  it('tells UTF-16 saved without a byte order mark by its zero bytes, LE and BE; a short or 8-bit text is not', () => {
    expect(detectEncoding(Buffer.from(people(';', 20), 'utf16le'))).toBe('utf-16le');
    expect(detectEncoding(Buffer.from(people(';', 20), 'utf16le').swap16())).toBe('utf-16be');
    expect(detectEncoding(Buffer.from('a,b\n', 'utf16le').subarray(0, 6))).toBe('utf-8');
    expect(detectEncoding(Buffer.from(people(',', 20), 'latin1'))).toBe('windows-1252');
    const { format, csv } = toApiCsv(Buffer.from(people('\t', 2), 'utf16le'));
    expect(format).toMatchObject({ encoding: 'utf-16le', delimiter: '\t', converted: true });
    expect(readCsv(csv).records.map((r) => r.fields[2])).toEqual(['City', 'Zürich', 'Zürich']);
  });
  it('refuses binary data (an image, a zip) in words, not as a draft of Windows-1252 gibberish', () => {
    const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]), Buffer.from('IHDR'), Buffer.alloc(64, 7)]);
    expect(() => toApiCsv(png)).toThrow(/^The file holds binary data, not text \(a NUL character on line 3\): choose a CSV file or an Excel workbook/);
    const zipLike = Buffer.concat([Buffer.from('PK\u0003\u0004'), Buffer.alloc(30), Buffer.from('word/document.xml')]);
    expect(() => toApiCsv(zipLike)).toThrow(/binary data/);
    expect(() => toApiCsv(Buffer.from('Phone\n4155551000\u0000\n'), { encoding: 'windows-1252' })).toThrow(/NUL character on line 2 read as Windows-1252/);
  });
  it('a UTF-16 file read again in another encoding: the encoding is named as wrong, not the file', () => {
    const utf16 = Buffer.from(people(',', 20), 'utf16le');
    expect(() => toApiCsv(utf16, { encoding: 'windows-1252' })).toThrow('Read as Windows-1252 the file is NUL characters between its letters, so that is not its encoding; UTF-16 LE (detected) reads it');
    expect(() => toApiCsv(Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Zoë,1\n', 'utf16le')]), { encoding: 'utf-8' })).toThrow('The file is not UTF-8 text; UTF-16 LE (detected) reads it');
  });
  it('says a chosen encoding is the wrong one when it leaves a long file without a line break', () => {
    const file = Buffer.from(people(',', 100), 'utf8');
    expect(() => toApiCsv(file, { encoding: 'utf-16le' })).toThrow('Read as UTF-16 LE the file has no line breaks, so that is not its encoding; UTF-8 (detected) reads it');
    // A short one-line file is read as asked: nothing to go by.
    expect(toApiCsv(Buffer.from('Phone,Name', 'utf8'), { encoding: 'windows-1252' }).format.encoding).toBe('windows-1252');
  });
  it('refuses non-UTF-8 bytes read as UTF-8 in plain words, and decodes Windows-1252 curly quotes and accents', () => {
    expect(() => decodeAs(Buffer.from([0x93, 0x41, 0x94]), 'utf-8')).toThrow(/Windows-1252/);
    expect(decodeAs(Buffer.from([0x93, 0x4d, 0xfc, 0x94]), 'windows-1252')).toBe('\u201cMü\u201d');
  });
});

describe('detectDelimiter', () => {
  it.each([[','], [';'], ['\t'], ['|']])('finds %j', (sep) => expect(detectDelimiter(people(sep))).toBe(sep));
  it('is not fooled by the delimiter of another kind inside quoted cells or by commas in a semicolon file', () => {
    expect(detectDelimiter('Name;Phone;Note\r\n"Smith, Jo";4155551000;"a;b"\r\nLee;4155551001;"x, y, z"\r\n')).toBe(';');
  });
  it('reads a one-column file with commas', () => expect(detectDelimiter('Phone\n4155551000\n4155551001\n')).toBe(','));
});

describe('parseDelimited', () => {
  it('keeps quoted delimiters, doubled quotes and line breaks; skips blank lines', () => {
    expect(parseDelimited('a;"b;c"\n\n"say ""hi""";"x\ny"\n', ';')).toEqual([['a', 'b;c'], ['say "hi"', 'x\ny']]);
  });
  it('refuses a quoted cell that never ends', () => expect(() => parseDelimited('a;"b\n', ';')).toThrow(/never ends/));
});

describe('looksLikeData', () => {
  it('a valid number and no header word: data; a header, or no number: not', () => {
    expect(looksLikeData(['Ann Lee', '(415) 555-1000', 'Zürich'])).toBe(true);
    expect(looksLikeData(['Name', 'Phone'])).toBe(false);
    expect(looksLikeData(['Ann', 'Zürich'])).toBe(false);
    expect(looksLikeData(['Phone number 4155551000'])).toBe(false);
    // A value holding a header word is still a value: the contact is not taken for column names.
    expect(looksLikeData(['Ada0', 'Smith', '(212) 555-3000', 'Acme Phone Services'])).toBe(true);
    expect(looksLikeData(['Ada', '(212) 555-3000', 'Contact Center Inc'])).toBe(true);
    for (const header of [['First name', 'Mobile #', '(212) 555-3000'], ['phone_2', '(212) 555-3000'], ['E-mail', '2125553000']]) expect(looksLikeData(header), header.join('|')).toBe(false);
  });
});

describe('large files', () => {
  it('reads 250,000 rows without running out of stack', () => {
    const lines = ['Name,Phone', ...Array.from({ length: 250_000 }, (_, i) => `P${i},(212) ${300 + (i % 600)}-${String(i % 10_000).padStart(4, '0')}`)];
    const { format } = toApiCsv(Buffer.from(lines.join(';').replace(/,/g, '\t').replace(/;/g, '\n')));
    expect(format).toMatchObject({ delimiter: '\t', converted: true, rows_problem: null });
  });
});

describe('rowsProblem', () => {
  it('names too few and too many rows against the spec limits', () => {
    expect(rowsProblem(99)?.kind).toBe('too_few');
    expect(rowsProblem(100)).toBeNull();
    expect(rowsProblem(250_000)).toBeNull();
    expect(rowsProblem(250_001)?.message).toBe('The file has 250,001 rows of contacts; an upload holds at most 250,000. Split it into smaller files.');
  });
});

describe('toApiCsv', () => {
  it('keeps a UTF-8 comma file with a header byte for byte', () => {
    const bytes = Buffer.from('\uFEFF' + people(','), 'utf8');
    const { csv, format } = toApiCsv(bytes);
    expect(csv.equals(bytes)).toBe(true);
    expect(format).toMatchObject({ delimiter: ',', encoding: 'utf-8', header_row: true, converted: false });
  });
  it('converts a semicolon file in Windows-1252 to UTF-8 with commas, quoting cells that hold commas', () => {
    const text = 'Name;Phone;City\r\n"Smith, Jo";(415) 555-1000;Zürich\r\n';
    const { csv, format } = toApiCsv(Buffer.from(text, 'latin1'));
    expect(csv.toString('utf8')).toBe('Name,Phone,City\r\n"Smith, Jo",(415) 555-1000,Zürich\r\n');
    expect(format).toMatchObject({ delimiter: ';', encoding: 'windows-1252', converted: true, detected: { delimiter: ';', encoding: 'windows-1252' } });
  });
  it('converts UTF-16 LE with tabs', () => {
    const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(people('\t', 1), 'utf16le')]);
    expect(toApiCsv(bytes).csv.toString('utf8')).toBe('Name,Phone,City\r\nP0,(415) 555-1000,Zürich\r\n');
  });
  it('names the columns of a header-less file so its first contact is kept, and counts it', () => {
    const bytes = Buffer.from('Ann,(415) 555-1000\nBob,(415) 555-1001\n', 'utf8');
    const { csv, format } = toApiCsv(bytes);
    expect(csv.toString('utf8')).toBe('column_1,column_2\r\nAnn,(415) 555-1000\nBob,(415) 555-1001\n');
    expect(format).toMatchObject({ header_row: false, first_row_looks_like_data: true, detected: { header_row: false } });
    expect(readCsv(csv).records).toHaveLength(3);
    expect(format.rows_problem).toMatchObject({ kind: 'too_few', message: expect.stringContaining('2 rows') });
    // The person says the first row is a header after all: it is read as one.
    expect(toApiCsv(bytes, { header_row: true }).csv.equals(bytes)).toBe(true);
  });
  it('follows an explicit choice over detection', () => {
    const { csv, format } = toApiCsv(Buffer.from(people(';', 1)), { delimiter: ',' });
    expect(format).toMatchObject({ delimiter: ',', detected: { delimiter: ';' } });
    expect(readCsv(csv).records[0]!.fields).toEqual(['Name;Phone;City']);
  });
  it('is the same rows as the API would read after conversion, for hostile cells', () => {
    const text = 'A|B\r\n"=HYPERLINK(""x"")"|" lead"\r\n"multi\nline"|"q""uote"\r\n';
    const rows = readCsv(toApiCsv(Buffer.from(text)).csv).records.map((r) => r.fields);
    expect(rows).toEqual([['A', 'B'], ['=HYPERLINK("x")', ' lead'], ['multi\nline', 'q"uote']]);
  });
});
