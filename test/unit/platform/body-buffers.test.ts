import { describe, expect, it } from 'vitest';
import { BodyBuffers, POOLED_BODY_MAX_BYTES, POOLED_BODY_MIN_BYTES } from '../../../local/body-buffers';

const MiB = 1024 * 1024;

describe('the local server keeps the buffer a large body was read into for the next one', () => {
  it('hands the kept buffer to the next large body, zeroed: a part kept past release reads zeros, never the next body', () => {
    const pool = new BodyBuffers();
    const first = pool.lease(3 * MiB);
    expect(first.bytes.length).toBe(3 * MiB);
    first.bytes.fill(0xab);
    const kept = first.bytes.subarray(10, 20);
    first.release();
    expect([...kept]).toEqual(new Array(10).fill(0));
    expect(pool.keptBytes()).toBe(3 * MiB);

    const second = pool.lease(2 * MiB + 5);
    expect(second.bytes.length).toBe(2 * MiB + 5);
    // The same memory: reading a body into it wrote nothing fresh.
    expect(second.bytes.buffer).toBe(first.bytes.buffer);
    expect(pool.keptBytes()).toBe(0);
    second.bytes.fill(0xcd);
    second.release();
    second.release();
    expect(pool.keptBytes()).toBe(3 * MiB);
  });

  it('gives bodies at the same time buffers of their own, and keeps the largest given back', () => {
    const pool = new BodyBuffers();
    const a = pool.lease(2 * MiB);
    const b = pool.lease(2 * MiB);
    expect(a.bytes.buffer).not.toBe(b.bytes.buffer);
    a.bytes.fill(1);
    b.bytes.fill(2);
    expect(a.bytes.every((x) => x === 1)).toBe(true);
    const larger = pool.lease(5 * MiB);
    a.release();
    larger.release();
    b.release();
    expect(pool.keptBytes()).toBe(5 * MiB);
  });

  it('rounds a new buffer up to whole MiB, so that a slightly larger next body still fits', () => {
    const pool = new BodyBuffers();
    const first = pool.lease(2 * MiB + 1);
    first.release();
    expect(pool.keptBytes()).toBe(3 * MiB);
    const next = pool.lease(3 * MiB);
    expect(next.bytes.buffer).toBe(first.bytes.buffer);
  });

  it('keeps nothing of small bodies or of bodies over its bound', () => {
    const pool = new BodyBuffers();
    pool.lease(POOLED_BODY_MIN_BYTES - 1).release();
    expect(pool.keptBytes()).toBe(0);
    const huge = pool.lease(POOLED_BODY_MAX_BYTES + 1);
    expect(huge.bytes.length).toBe(POOLED_BODY_MAX_BYTES + 1);
    huge.release();
    expect(pool.keptBytes()).toBe(0);
  });
});
