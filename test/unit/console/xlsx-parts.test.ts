import { describe, expect, it } from 'vitest';
import { dateStyleOfCode, dateStyleOf, serialToDate } from '../../../lambdas/console/number-format';
import { partName, readDateStyles, readRelationships, readSharedStrings, readWorkbook, relationshipsOf } from '../../../lambdas/console/xlsx-parts';
import { readWholeXml, unescapeExcel } from '../../../lambdas/console/xlsx-xml';
import { InvalidInput, TooLarge } from '../../../lambdas/platform/domain-errors';

// The workbook parts the XLSX import reads (lambdas/console/xlsx-parts.ts), each fed in small
// pieces so every tag and text is cut somewhere, and the bounds that keep a small upload from
// taking the process's memory (xlsx-xml.ts).

async function* pieces(xml: string, size = 5): AsyncGenerator<string> {
  for (let at = 0; at < xml.length; at += size) yield xml.slice(at, at + size);
}

const NS = 'xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"';

describe('shared strings', () => {
  it('reads plain text: rich runs joined, phonetic guides left out, whitespace between elements ignored, escapes and CDATA read', async () => {
    const xml = `<?xml version="1.0"?>
<x:sst xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="5">
  <x:si>
    <x:t>+14155550100</x:t>
  </x:si>
  <x:si><x:r><x:rPr><x:b/></x:rPr><x:t>Jo </x:t></x:r><x:r><x:t>Smith</x:t></x:r></x:si>
  <x:si><x:t>東京</x:t><x:rPh sb="0" eb="2"><x:t>トウキョウ</x:t></x:rPh></x:si>
  <x:si><x:t>a_x000D_b &amp; c</x:t></x:si>
  <x:si><x:t><![CDATA[4155550101]]></x:t></x:si>
</x:sst>`;
    expect(await readSharedStrings(pieces(xml))).toEqual(['+14155550100', 'Jo Smith', '東京', 'a\rb & c', '4155550101']);
  });

  it('refuses more strings, or more characters of them, than the import keeps', async () => {
    const xml = `<sst ${NS}>${'<si><t>ab</t></si>'.repeat(10)}</sst>`;
    await expect(readSharedStrings(pieces(xml), { count: 9, chars: 1000 })).rejects.toBeInstanceOf(TooLarge);
    await expect(readSharedStrings(pieces(xml), { count: 100, chars: 19 })).rejects.toBeInstanceOf(TooLarge);
    expect(await readSharedStrings(pieces(xml), { count: 10, chars: 20 })).toHaveLength(10);
  });

  it("refuses one string longer than Excel's cell limit while reading it, and more than 1 MB without a tag", async () => {
    await expect(readSharedStrings(pieces(`<sst ${NS}><si><t>${'x'.repeat(32_768)}</t></si></sst>`, 4096))).rejects.toThrow(/more than 32,767 characters/);
    // saxes would hold a text node whole until its end: stopped before.
    const endless = (async function* () {
      yield `<sst ${NS}><si><t>`;
      for (let i = 0; i < 100; i++) yield 'y'.repeat(64 * 1024);
      throw new Error('read past the bound');
    })();
    await expect(readSharedStrings(endless)).rejects.toBeInstanceOf(TooLarge);
  });
});

describe('workbook, relationships, styles', () => {
  it('lists the sheets in tab order with their state, and the date system however it is spelled', async () => {
    const book = (pr: string) =>
      `<x:workbook xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:ns1="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><x:workbookPr ${pr}/><x:definedNames><x:definedName name="n">S!A1</x:definedName></x:definedNames><x:sheets><x:sheet name="Lists" sheetId="2" state="hidden" ns1:id="rId2"/><x:sheet name="Contacts" sheetId="1" ns1:id="rId1"/></x:sheets></x:workbook>`;
    const read = await readWorkbook(pieces(book('date1904="true"')));
    expect(read).toEqual({ sheets: [{ name: 'Lists', relationshipId: 'rId2', state: 'hidden' }, { name: 'Contacts', relationshipId: 'rId1', state: 'visible' }], date1904: true });
    expect((await readWorkbook(pieces(book('date1904="1"')))).date1904).toBe(true);
    expect((await readWorkbook(pieces(book('date1904="false"')))).date1904).toBe(false);
  });

  it('resolves relationship targets against their part: relative, absolute, escaped, above the root', async () => {
    const rels = `<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/my%20sheet.xml"/><Relationship Id="rId2" Type="http://purl.oclc.org/ooxml/officeDocument/relationships/sharedStrings" Target="/xl/strings.xml"/><Relationship Id="rId3" Type="x/hyperlink" Target="https://example.com" TargetMode="External"/></Relationships>`;
    expect(await readRelationships(pieces(rels), 'xl/workbook.xml')).toEqual([
      { id: 'rId1', type: 'worksheet', part: 'xl/worksheets/my sheet.xml', external: false },
      { id: 'rId2', type: 'sharedStrings', part: 'xl/strings.xml', external: false },
      { id: 'rId3', type: 'hyperlink', part: expect.any(String), external: true },
    ]);
    expect(partName('', 'xl/workbook.xml')).toBe('xl/workbook.xml');
    expect(partName('xl/workbook.xml', '../../../etc/passwd')).toBe('etc/passwd');
    expect(partName('xl/workbook.xml', 'bad%zz.xml')).toBe('xl/bad%zz.xml');
    expect(relationshipsOf('xl/workbook.xml')).toBe('xl/_rels/workbook.xml.rels');
    expect(relationshipsOf('book.xml')).toBe('_rels/book.xml.rels');
  });

  it('tells which cell styles show dates, times or durations, with or without number formats of its own', async () => {
    const styles = `<styleSheet ${NS}><numFmts count="3"><numFmt numFmtId="164" formatCode="yyyy\\-mm\\-dd"/><numFmt numFmtId="165" formatCode="0\\ \\m\\b"/><numFmt numFmtId="166" formatCode="[h]:mm:ss"/></numFmts><cellXfs count="7"><xf numFmtId="0"/><xf numFmtId="14"/><xf numFmtId="164"/><xf numFmtId="165"/><xf numFmtId="166"/><xf numFmtId="20"/><xf numFmtId="57"/></cellXfs></styleSheet>`;
    expect(await readDateStyles(pieces(styles))).toEqual([null, 'date', 'date', null, 'duration', 'time', 'date']);
    expect(await readDateStyles(pieces(`<styleSheet ${NS}><fonts count="1"><font/></fonts></styleSheet>`))).toEqual([]);
    await expect(readDateStyles(pieces(`<styleSheet ${NS}><cellXfs>${'<xf/>'.repeat(65_537)}</cellXfs></styleSheet>`, 64 * 1024))).rejects.toBeInstanceOf(InvalidInput);
  });
});

describe('number formats and dates', () => {
  it('reads a format code for what it shows', () => {
    for (const code of ['yyyy-mm-dd', 'd/m/yy h:mm', 'mmm-yy', '[$-409]dddd, mmmm d, yyyy', 'yyyy"年"m"月"d"日"']) expect(dateStyleOfCode(code), code).toBe('date');
    for (const code of ['h:mm AM/PM', 'hh:mm:ss', 'mm:ss.0']) expect(dateStyleOfCode(code), code).toBe('time');
    for (const code of ['[h]:mm:ss', '[hh]:mm']) expect(dateStyleOfCode(code), code).toBe('duration');
    for (const code of ['General', '0', '#,##0.00', '0.00E+00', '0\\ \\m\\b', '"days "0', '[Red]0.00', '[$€-407] #,##0']) expect(dateStyleOfCode(code), code).toBeNull();
    expect(dateStyleOf(14, undefined)).toBe('date');
    expect(dateStyleOf(46, undefined)).toBe('duration');
    expect(dateStyleOf(2, undefined)).toBeNull();
    expect(dateStyleOf(14, '0.00')).toBeNull();
  });

  it("turns serials into the days Excel shows, in both date systems, with 1900's leap day that never was", () => {
    const day = (d: Date) => d.toISOString().slice(0, 10);
    expect(day(serialToDate(1, false))).toBe('1900-01-01');
    expect(day(serialToDate(59, false))).toBe('1900-02-28');
    expect(day(serialToDate(61, false))).toBe('1900-03-01');
    expect(day(serialToDate(46027, false))).toBe('2026-01-05');
    expect(day(serialToDate(0, true))).toBe('1904-01-01');
    expect(day(serialToDate(44565, true))).toBe('2026-01-05');
  });
});

describe('XML bounds', () => {
  it('refuses nesting deeper than any workbook part as damaged, before it grows', async () => {
    await expect(readWholeXml(pieces('<a>'.repeat(65) + '</a>'.repeat(65)), {})).rejects.toBeInstanceOf(InvalidInput);
    await expect(readWholeXml(pieces('<a>'.repeat(64) + '</a>'.repeat(64)), {})).resolves.toBeUndefined();
  });

  it("decodes Excel's _xHHHH_ escapes", () => {
    expect(unescapeExcel('a_x000D__x000A_b_x005F_x0041_')).toBe('a\r\nb_x0041_');
    expect(unescapeExcel('plain')).toBe('plain');
  });
});
