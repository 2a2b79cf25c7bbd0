import { describe, expect, it } from 'vitest';
import { WorkFileWriter, WorkV3Reader, nationalOf, workFileOfRows, type WorkHeaderV3 } from '../../../lambdas/uploads/work-file-v3';
import { readFirstCells, readWorkRows } from '../../../lambdas/uploads/work-file';
import { readWorkRowsStream } from '../../../lambdas/uploads/work-rows-stream';
import { EMPTY_CELL, INVALID_CELL, type WorkRow } from '../../../lambdas/uploads/plan';

// The work file's version 3 (work-file-v3.ts): values written as bytes give back, whole or read a
// piece at a time, what the rows held, whatever the pieces they were written into and read from.

async function* inPieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

const header = (bytes: Buffer): WorkHeaderV3 => JSON.parse(bytes.toString('latin1', 0, bytes.indexOf(10))) as WorkHeaderV3;

describe('work file version 3 (lambdas/uploads/work-file-v3.ts)', () => {
  it('keeps a name longer than a piece, and one a stream cuts into many pieces', async () => {
    const long = 'é'.repeat(200_000) + ' 😀';
    const rows: WorkRow[] = [
      { numbers: ['+12125550143'], name: { first: 'Ada', last: 'Lovelace' } },
      { numbers: [null], name: { full: long } },
      { numbers: [''], name: { first: long, last: 'x' } },
      { numbers: ['+16465550100'] },
    ];
    const bytes = workFileOfRows(rows, 1, ['1', long, '', '4']);
    const want = { numbers: ['+12125550143', null, '', '+16465550100'], names: [{ first: 'Ada', last: 'Lovelace' }, { full: long }, { first: long, last: 'x' }, 0] };
    expect(readWorkRows(bytes)).toEqual(want);
    expect(readFirstCells(bytes)).toEqual(['1', long, '', '4']);
    for (const size of [1000, 64 * 1024]) expect(await readWorkRowsStream(inPieces(bytes, size))).toEqual(want);
  });

  it('writes into pieces of any size and offset (a typed array view needs 8-byte alignment)', () => {
    const rows: WorkRow[] = Array.from({ length: 3000 }, (_, i) => ({
      numbers: [i % 3 ? `+1212555${String(i % 10_000).padStart(4, '0')}` : null, i % 5 ? '' : '+13101234'],
      name: i % 2 ? { full: `Zoë ${i}` } : { first: `A${i}`, last: 'Ñandú' },
    }));
    const want = readWorkRows(workFileOfRows(rows, 2, rows.map((_, i) => String(i))));
    for (const size of [64, 1001, 4096]) {
      const writer = new WorkFileWriter(2, { firstCells: true }, () => Buffer.alloc(size + 3).subarray(3));
      rows.forEach((row, i) => {
        row.numbers.forEach((n) => writer.number(nationalOf(n)));
        writer.name(row.name?.full ?? '', row.name?.first ?? '', row.name?.last ?? '');
        writer.firstCell(String(i));
      });
      const bytes = Buffer.concat(writer.parts());
      expect(readWorkRows(bytes)).toEqual(want);
      expect(readFirstCells(bytes)).toEqual(rows.map((_, i) => String(i)));
    }
  });

  it('says in its header how many rows and bytes each section holds; names absent when no row has one', () => {
    const bytes = workFileOfRows([{ numbers: ['+12125550143', ''] }, { numbers: [null, '+14155550101'] }], 2);
    expect(header(bytes)).toEqual({ v: 3, rows: 2, columns: 2, names: null, firstCells: null });
    expect(bytes.length - bytes.indexOf(10) - 1).toBe(2 * 2 * 8);
    expect(readWorkRows(bytes)).toEqual({ numbers: ['+12125550143', '', null, '+14155550101'], names: null });
  });

  it('writes a lone surrogate as U+FFFD, as Buffer.from does (a file decoded from UTF-8 never holds one)', () => {
    const bytes = workFileOfRows([{ numbers: ['+12125550143'], name: { full: 'a\ud800b' } }], 1);
    expect(readWorkRows(bytes).names).toEqual([{ full: 'a\ufffdb' }]);
  });

  it("writes every name's bytes as Buffer.from does, ASCII or not, wherever the first other character falls", () => {
    const units = ['a', 'Z', ' ', '-', "'", '\u007f', '\u0080', 'é', 'Ñ', '中', '\ud83d\ude00', '\ud800', '\udc00', '\u0000'];
    let seed = 7;
    const next = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    const texts = ['', 'Ada', 'Zoë', 'é', '\ud800', 'abc\ud83d', ...Array.from({ length: 3000 }, () => Array.from({ length: 1 + next(12) }, () => units[next(units.length)]).join(''))];
    const writer = new WorkFileWriter(0, { firstCells: true }, () => Buffer.alloc(256));
    for (const text of texts) writer.firstCell(text);
    const bytes = Buffer.concat(writer.parts());
    const want = Buffer.concat(texts.flatMap((text) => {
      const utf8 = Buffer.from(text, 'utf8');
      const length = Buffer.alloc(4);
      length.writeUInt32LE(utf8.length);
      return [length, utf8];
    }));
    expect(bytes.subarray(bytes.indexOf(10) + 1).equals(want)).toBe(true);
  });

  it('maps cells as plan.ts holds them and refuses what is not +1 and a national number', () => {
    expect([nationalOf(''), nationalOf(null), nationalOf('+12125550143'), nationalOf('+13101234')]).toEqual([EMPTY_CELL, INVALID_CELL, 2125550143, 3101234]);
    for (const bad of ['+442071234567', '2125550143', '+1012', '+1']) expect(() => nationalOf(bad)).toThrow();
  });

  it('refuses a header of another version, a name of an unknown kind, and bytes past its sections', () => {
    expect(() => new WorkV3Reader({ v: 2, rows: 1, columns: 1, names: null, firstCells: null } as never)).toThrow(/not version 3/);
    const bytes = workFileOfRows([{ numbers: ['+12125550143'], name: { full: 'x' } }], 1);
    const body = bytes.subarray(bytes.indexOf(10) + 1);
    const badKind = Buffer.from(body);
    badKind[8] = 7;
    expect(() => {
      const reader = new WorkV3Reader(header(bytes));
      reader.push(badKind);
    }).toThrow(/kind 7/);
    const reader = new WorkV3Reader(header(bytes));
    reader.push(body);
    expect(() => reader.push(Buffer.from([0]))).toThrow(/longer/);
  });
});
