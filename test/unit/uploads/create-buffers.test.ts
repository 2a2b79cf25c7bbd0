import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CreateBuffers, emptyCreateBufferPool, PIECE_BYTES, POOL_BYTES, pooledCreateBytes } from '../../../lambdas/uploads/create-buffers';
import { planCsvBytes } from '../../../lambdas/uploads/csv-planner';
import { resolveMapping } from '../../../lambdas/uploads/request';

beforeEach(emptyCreateBufferPool);
afterEach(emptyCreateBufferPool);

const MiB = 1024 * 1024;
const filled = (bytes: number, byte: number) => Buffer.alloc(bytes, byte);

describe("create's buffers", () => {
  it('hands a piece out to one lease at a time, and again once given back', () => {
    const a = new CreateBuffers();
    const b = new CreateBuffers();
    const first = a.piece();
    const second = b.piece();
    expect(first.length).toBe(PIECE_BYTES);
    expect(second).not.toBe(first);
    a.releasePieces();
    expect(pooledCreateBytes()).toBe(PIECE_BYTES);
    expect(b.piece()).toBe(first);
    expect(pooledCreateBytes()).toBe(0);
  });

  it('joins parts in order, into the smallest pooled buffer that holds them, never one a lease still holds', () => {
    const parts = [filled(MiB, 1), filled(MiB / 2, 2), Buffer.from('end')];
    const lease = new CreateBuffers();
    const joined = lease.join(parts);
    expect(joined.equals(Buffer.concat(parts))).toBe(true);
    // Room to spare: a slightly larger next create fits in it.
    expect(joined.buffer.byteLength).toBeGreaterThan(joined.length);
    const other = new CreateBuffers().join(parts);
    expect(other.buffer).not.toBe(joined.buffer);
    lease.release();
    const again = new CreateBuffers().join([filled(MiB + 10, 3)]);
    expect(again.buffer).toBe(joined.buffer);
    expect(again.equals(filled(MiB + 10, 3))).toBe(true);
  });

  it('joins small objects into buffers of their own, never pooled', () => {
    const lease = new CreateBuffers();
    const small = lease.join([Buffer.from('{"v":2}'), Buffer.from('[]')]);
    expect(small.toString()).toBe('{"v":2}[]');
    lease.release();
    expect(pooledCreateBytes()).toBe(0);
  });

  it(`keeps at most ${POOL_BYTES / MiB} MiB between creates`, () => {
    const lease = new CreateBuffers();
    for (let i = 0; i < (POOL_BYTES / PIECE_BYTES) * 2; i++) lease.piece();
    lease.join([filled(8 * MiB, 0)]);
    lease.release();
    expect(pooledCreateBytes()).toBeLessThanOrEqual(POOL_BYTES);
    expect(pooledCreateBytes()).toBeGreaterThan(POOL_BYTES - 9 * MiB);
    emptyCreateBufferPool();
    expect(pooledCreateBytes()).toBe(0);
  });

  it('plans a file the same on reused buffers as on fresh ones, and gives them back once released', async () => {
    const rows = Array.from({ length: 60_000 }, (_, i) => `${i},Ada ${i},"Lovelace, ${i}",+1212${String(5_550_000 + (i % 4_000_000)).padStart(7, '0')}`);
    const csv = Buffer.from(`id,first,last,phone\r\n${rows.join('\r\n')}\r\n`);
    const mapping = resolveMapping({ phone_column: 'phone', first_name_column: 'first', last_name_column: 'last' });
    const fresh = await planCsvBytes(csv, mapping);
    const [work, layout] = [Buffer.from(fresh.work), Buffer.from(fresh.layout)];
    expect(work.length).toBeGreaterThan(MiB);
    fresh.release!();
    const pooled = pooledCreateBytes();
    expect(pooled).toBeGreaterThan(work.length);
    // A second plan of another file on the pool's buffers, then this file again on them.
    const other = await planCsvBytes(Buffer.from(csv.toString().replaceAll('Ada', 'Grace')), mapping);
    other.release!();
    const reused = await planCsvBytes(csv, mapping);
    expect(pooledCreateBytes()).toBeLessThan(pooled);
    expect(Buffer.from(reused.work).equals(work)).toBe(true);
    expect(Buffer.from(reused.layout).equals(layout)).toBe(true);
    reused.release!();
  });
});
