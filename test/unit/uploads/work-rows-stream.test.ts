import { describe, expect, it } from 'vitest';
import { readWorkRows, type StoredRows } from '../../../lambdas/uploads/work-file';
import { readWorkRowsStream } from '../../../lambdas/uploads/work-rows-stream';
import { workFileOfRows } from '../../../lambdas/uploads/work-file-v3';
import type { WorkRow } from '../../../lambdas/uploads/plan';

// Prepare reads the work file as its body arrives (work-rows-stream.ts): whatever the pieces'
// sizes, it must give back what readWorkRows gives for the whole file, and refuse what it refuses.

async function* inPieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

/** The same rows as a version 3 file (work-file-v3.ts), the form create writes now. */
function workFileV3(rows: StoredRows, columns: number, firstCells?: string[]): Buffer {
  const n = rows.names ? rows.names.length : rows.numbers.length / columns;
  const workRows: WorkRow[] = Array.from({ length: n }, (_, i) => {
    const name = rows.names?.[i];
    return { numbers: rows.numbers.slice(i * columns, (i + 1) * columns), ...(name ? { name } : {}) };
  });
  return workFileOfRows(workRows, columns, firstCells);
}

const workFile = (rows: StoredRows, firstCells: string[] | null = null): Buffer =>
  Buffer.from([JSON.stringify({ v: 2 }), JSON.stringify(rows.numbers), JSON.stringify(rows.names), JSON.stringify(firstCells)].join('\n'));

// Names with what a splitter could take for the array's structure: commas, brackets and braces,
// quotes and backslashes inside strings, control characters JSON escapes, and multi-byte UTF-8
// that a piece boundary cuts in two.
const TRICKY: StoredRows = {
  numbers: ['+12125550143', null, '', '+16465550100', '+14155550101', null, '+12125550143', ''],
  names: [{ first: 'Ada', last: 'Lovelace' }, { first: 'Zoë', last: 'Smith, Jr' }, 0, { full: '[x], {y}: "q" \\ \n\t\u0001 😀 中文' }],
};

const SIZES = [1, 2, 3, 5, 7, 16, 64, 1024, 64 * 1024];

describe('readWorkRowsStream (lambdas/uploads/work-rows-stream.ts): the work file read a piece at a time', () => {
  it('gives back what readWorkRows reads of the whole file, for any piece size', async () => {
    const cases: Buffer[] = [
      workFile(TRICKY, ['a', 'b,c', 'd']),
      workFile({ numbers: TRICKY.numbers, names: null }),
      workFile({ numbers: [], names: null }),
      workFile({ numbers: ['+12125550143'], names: [0] }),
      workFileV3(TRICKY, 2, ['a', 'b,c', '', 'd\u00e9']),
      workFileV3(TRICKY, 2),
      workFileV3({ numbers: TRICKY.numbers, names: null }, 2),
      workFileV3({ numbers: [], names: null }, 1),
      workFileV3({ numbers: ['+12125550143', '+13101234'], names: null }, 1),
    ];
    for (const bytes of cases) {
      const want = readWorkRows(bytes);
      for (const size of SIZES) expect(await readWorkRowsStream(inPieces(bytes, size))).toEqual(want);
    }
  });

  it('reads many rows parsed across many pieces in file order', async () => {
    const n = 20_000;
    const rows: StoredRows = {
      numbers: Array.from({ length: n }, (_, i) => (i % 7 === 0 ? null : `+1212555${String(i).padStart(4, '0')}`)),
      names: Array.from({ length: n }, (_, i) => (i % 5 === 0 ? 0 : { first: `Zoë ${i}`, last: `O"Neil, ${i}` })),
    };
    for (const bytes of [workFile(rows), workFileV3(rows, 1), workFileV3(rows, 1, rows.numbers.map((_, i) => `id-${i}`))]) {
      for (const size of [1000, 4096, 64 * 1024]) expect(await readWorkRowsStream(inPieces(bytes, size))).toEqual(rows);
    }
  });

  it('still reads a version 1 file (one JSON object, no newline)', async () => {
    const v1 = Buffer.from(JSON.stringify({ v: 1, bom: false, start: [], end: [], ...TRICKY }));
    for (const size of [3, 64 * 1024]) expect(await readWorkRowsStream(inPieces(v1, size))).toEqual(readWorkRows(v1));
  });

  it('refuses what readWorkRows refuses: an unknown version, broken JSON', async () => {
    await expect(readWorkRowsStream(inPieces(Buffer.from('{"v":4}\n[]\nnull\nnull'), 4))).rejects.toThrow(/version 4/);
    const v3 = workFileV3(TRICKY, 2, ['a', 'b', 'c', 'd']);
    const cut = [v3.subarray(0, v3.length - 1), v3.subarray(0, v3.indexOf(10) + 9), Buffer.concat([v3, Buffer.from([0])])];
    for (const bytes of cut) {
      expect(() => readWorkRows(bytes)).toThrow(/version 3/);
      for (const size of [1, 5, 64]) await expect(readWorkRowsStream(inPieces(bytes, size))).rejects.toThrow(/version 3/);
    }
    const broken = ['[,"x"]', '["x",,"y"]', '["x",]', '["x", ]'].map((line) => Buffer.from(`{"v":2}\n${line}\nnull\nnull`));
    broken.push(Buffer.from('{"v":2}\n["+12125550143","x"\nnull\nnull'), Buffer.from('{"v":2}\n["+12125550143"]x\nnull\nnull'));
    for (const bytes of broken) {
      expect(() => readWorkRows(bytes)).toThrow();
      for (const size of [1, 5, 64]) await expect(readWorkRowsStream(inPieces(bytes, size))).rejects.toThrow();
    }
  });
});
