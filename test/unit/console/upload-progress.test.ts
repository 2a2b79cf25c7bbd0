import { describe, expect, it } from 'vitest';
import { chunksOf, progressOf } from '../../../lambdas/console/upload-progress';
import { numberItems } from '../../../lambdas/uploads/pipeline/cell-items';
import type { StoredRows } from '../../../lambdas/uploads/work-file';

// Processing progress derived from an upload's chunks (the record keeps none).

const plain = { identity_enabled: false, total_rows: 20_000 };

describe('chunksOf', () => {
  it('reads the chunks written (0 … n−1 without a gap) and those with a result from the names listed', () => {
    expect(chunksOf(['0.json', '1.json', '2.json', '1.result.json', '2.result.json', '1.checkpoint.json', '00.json', '3.result.json', 'x.json', '5.json'])).toEqual({ written: 3, done: [1, 2] });
    expect(chunksOf([])).toEqual({ written: 0, done: [] });
  });
});

describe('progressOf', () => {
  it('counts the items of the chunks with a result, a percentage of them and the time left at the pace so far', () => {
    expect(progressOf({ written: 4, done: [0, 1], chunkSize: 5000, lastChunkItems: 5000 }, plain, 30_000)).toEqual({
      chunks_total: 4,
      chunks_done: 2,
      unit: 'numbers',
      numbers_done: 10_000,
      numbers_total: 20_000,
      percent: 50,
      eta_seconds: 30,
      rows_total: 20_000,
    });
    // The last chunk is partial and may finish first (chunks run in parallel): it counts its own items.
    expect(progressOf({ written: 3, done: [2], chunkSize: 5000, lastChunkItems: 2345 }, plain, 9_000)).toMatchObject({ numbers_done: 2345, numbers_total: 12_345, percent: 18 });
    expect(progressOf({ written: 3, done: [0, 1, 2], chunkSize: 5000, lastChunkItems: 2345 }, plain, 9_000)).toMatchObject({ numbers_done: 12_345, percent: 100, eta_seconds: 0 });
    expect(progressOf({ written: 1, done: [], chunkSize: 5000, lastChunkItems: 120 }, plain, 5_000)).toMatchObject({ chunks_total: 1, percent: 0, eta_seconds: null });
  });

  it('rows repeating numbers: the count, the percentage and the time left are of the same items, and the rows are given', () => {
    // 50,000 rows holding 10,497 distinct numbers, identity off: 3 chunks of distinct numbers.
    const byNumber = progressOf({ written: 3, done: [0], chunkSize: 5000, lastChunkItems: 497 }, { identity_enabled: false, total_rows: 50_000 }, 10_000);
    expect(byNumber).toEqual({ chunks_total: 3, chunks_done: 1, unit: 'numbers', numbers_done: 5000, numbers_total: 10_497, percent: 47, eta_seconds: 11, rows_total: 50_000 });
    // The same rows with identity on and a name per row: 50,000 number-and-name pairs in 10 chunks.
    // (Before, 4 of them done read "10,497 of 10,497 numbers classified (40%), about 2 seconds left".)
    const byPair = progressOf({ written: 10, done: [0, 1, 2, 3], chunkSize: 5000, lastChunkItems: 5000 }, { identity_enabled: true, total_rows: 50_000 }, 4_000);
    expect(byPair).toEqual({ chunks_total: 10, chunks_done: 4, unit: 'number_name_pairs', numbers_done: 20_000, numbers_total: 50_000, percent: 40, eta_seconds: 6, rows_total: 50_000 });
  });
});

describe('what a chunk holds', () => {
  // 60,000 rows holding 12,000 distinct numbers, each row its own name.
  const rows: StoredRows = {
    numbers: Array.from({ length: 60_000 }, (_, i) => `+1212${5_000_000 + (i % 12_000)}`),
    names: Array.from({ length: 60_000 }, (_, i) => ({ full: `Person ${i}` })),
  };
  const items = (identity: boolean) => {
    const it = numberItems(rows, 1, identity);
    let n = 0;
    while (!it.next().done) n++;
    return n;
  };
  it('distinct numbers with identity off (12 chunks of 5,000 only when the rows hold 60,000 distinct numbers), number-and-name pairs with it on', () => {
    expect(new Set(rows.numbers).size).toBe(12_000);
    expect(Math.ceil(items(false) / 5000)).toBe(3);
    expect(Math.ceil(items(true) / 5000)).toBe(12);
  });
});
