import { describe, expect, it } from 'vitest';
import { BoundedMemo } from '../../../lambdas/uploads/slice-index-cache';

const sized = (bytes: number) => ({ bytes });

describe('slice index memo', () => {
  it('loads a key once, concurrent callers sharing the load', async () => {
    const memo = new BoundedMemo<{ bytes: number }>((v) => v.bytes);
    let loads = 0;
    const load = async () => {
      loads++;
      return sized(10);
    };
    const [a, b] = await Promise.all([memo.get('k', load), memo.get('k', load)]);
    expect(await memo.get('k', load)).toBe(a);
    expect(b).toBe(a);
    expect(loads).toBe(1);
  });

  it('keeps neither a failed nor an empty load: the next caller loads again', async () => {
    const memo = new BoundedMemo<{ bytes: number }>((v) => v.bytes);
    await expect(memo.get('k', () => Promise.reject(new Error('store down')))).rejects.toThrow('store down');
    expect(memo.keys()).toEqual([]);
    expect(await memo.get('k', async () => null)).toBeNull();
    expect(memo.keys()).toEqual([]);
    expect(await memo.get('k', async () => sized(1))).toEqual(sized(1));
    expect(memo.keys()).toEqual(['k']);
  });

  it('drops the least recently used past its count', async () => {
    const memo = new BoundedMemo<{ bytes: number }>((v) => v.bytes, 2, 1000);
    await memo.get('a', async () => sized(1));
    await memo.get('b', async () => sized(1));
    await memo.get('a', async () => sized(99)); // used again: b is now the oldest
    await memo.get('c', async () => sized(1));
    expect(memo.keys()).toEqual(['a', 'c']);
  });

  it('drops the oldest past its bytes, but always keeps the newest, however large', async () => {
    const memo = new BoundedMemo<{ bytes: number }>((v) => v.bytes, 10, 100);
    await memo.get('a', async () => sized(60));
    await memo.get('b', async () => sized(60));
    expect(memo.keys()).toEqual(['b']);
    await memo.get('huge', async () => sized(10_000));
    expect(memo.keys()).toEqual(['huge']);
  });
});
