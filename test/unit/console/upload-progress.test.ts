import { describe, expect, it } from 'vitest';
import { progressOf } from '../../../lambdas/console/upload-progress';

// Processing progress derived from an upload's chunks (the record keeps none).

describe('progressOf', () => {
  it('counts whole chunks, a percentage and the time left at the pace so far', () => {
    expect(progressOf(4, 2, 5000, 20_000, 30_000)).toEqual({ chunks_total: 4, chunks_done: 2, numbers_done: 10_000, numbers_total: 20_000, percent: 50, eta_seconds: 30 });
    // The last chunk is partial: numbers done never pass the total; done is 100% with nothing left.
    expect(progressOf(3, 3, 5000, 12_345, 9_000)).toMatchObject({ numbers_done: 12_345, percent: 100, eta_seconds: 0 });
  });
  it('before prepare has written every chunk, the total comes from the valid numbers; nothing done has no estimate yet', () => {
    expect(progressOf(1, 0, 5000, 20_000, 5_000)).toMatchObject({ chunks_total: 4, percent: 0, eta_seconds: null });
    expect(progressOf(0, 0, 5000, 0, 0)).toMatchObject({ chunks_total: 1, percent: 0, eta_seconds: null });
  });
});
