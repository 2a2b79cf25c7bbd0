import { describe, expect, it } from 'vitest';
import { screenFeed } from '../../../lambdas/uploads/pipeline/screen-feed';

describe('screenFeed: a paid chunk screens its numbers a batch at a time, as its workers need them', () => {
  it('hands out only what the screen leaves, in order, reading one batch ahead of the workers', async () => {
    const reads: number[][] = [];
    const pending = Array.from({ length: 10 }, (_, i) => i);
    // Even numbers are answered by the screen (cache, range): only odd ones need a paid lookup.
    const feed = screenFeed(pending, async (batch) => (reads.push(batch), batch.filter((i) => i % 2 === 1)), 1, 4);
    expect(await feed.take()).toBe(1);
    expect(reads).toEqual([[0, 1, 2, 3]]);
    expect(await feed.take()).toBe(3);
    // The last number of a batch handed out: the next batch is read ahead.
    expect(reads).toHaveLength(2);
    const rest: (number | undefined)[] = [];
    for (let i = 0; i < 4; i++) rest.push(await feed.take());
    expect(rest).toEqual([5, 7, 9, undefined]);
    expect(reads).toEqual([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9]]);
  });

  it('an invocation that stops early has read at most one batch ahead', async () => {
    let read = 0;
    const feed = screenFeed(Array.from({ length: 1000 }, (_, i) => i), async (batch) => ((read += batch.length), batch), 2, 100);
    for (let i = 0; i < 150; i++) await feed.take();
    expect(read).toBeLessThanOrEqual(200);
  });

  it('many workers at once share one read at a time and every number goes to exactly one', async () => {
    let reading = 0;
    let most = 0;
    const feed = screenFeed(Array.from({ length: 500 }, (_, i) => i), async (batch) => {
      most = Math.max(most, ++reading);
      await new Promise((r) => setTimeout(r, 1));
      reading--;
      return batch;
    }, 8, 100);
    const got: number[] = [];
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = await feed.take(); i !== undefined; i = await feed.take()) got.push(i);
    }));
    expect(got.sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, i) => i));
    expect(most).toBe(1);
  });

  it('a failed screen fails the takes after it (the chunk\'s retry resumes from its checkpoint)', async () => {
    const feed = screenFeed([1, 2, 3], async () => {
      throw new Error('table unavailable');
    }, 1);
    await expect(feed.take()).rejects.toThrow('table unavailable');
    await expect(feed.take()).rejects.toThrow('table unavailable');
  });
});
