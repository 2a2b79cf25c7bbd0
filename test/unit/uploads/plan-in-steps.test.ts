import { describe, expect, it } from 'vitest';
import type { ColumnMapping } from '../../../lambdas/uploads/plan';
import { planUpload, planUploadInSteps } from '../../../lambdas/uploads/plan-upload';

// The console validates in steps to report progress: same rules, same plan, same refusals as the
// API's planUpload, with one progress call per step (never one per row, none after the last).

const header = ['name', 'phone', 'other'];
const table = (n: number) => Array.from({ length: n }, (_, i) => [`P${i}`, i % 7 === 0 ? 'not a number' : `(212) ${300 + (i % 600)}-${String(1000 + (i % 9000)).padStart(4, '0')}`, i % 5 === 0 ? '(415) 555-0100' : '']);
const mapping: ColumnMapping = { phoneColumns: ['phone', 'other'], fullNameColumn: 'name' };

async function inSteps(rows: string[][], every: number, options: { minimum?: number } = {}) {
  const calls: number[] = [];
  const plan = await planUploadInSteps(header, rows, mapping, { ...options, every, progress: async (n) => void calls.push(n) });
  return { plan, calls };
}

describe('planUploadInSteps', () => {
  it('makes exactly the plan planUpload makes, reporting every `every` rows and not after the last', async () => {
    const rows = table(25_001);
    const { plan, calls } = await inSteps(rows, 10_000);
    expect(plan).toEqual(planUpload(header, rows, mapping));
    expect(calls).toEqual([10_000, 20_000]);
    expect((await inSteps(table(20_000), 10_000)).calls).toEqual([10_000]);
    expect((await inSteps(table(9_999), 10_000)).calls).toEqual([]);
  });

  it('refuses what planUpload refuses, with the same error, having reported only the steps before it', async () => {
    const rows = table(30_000);
    rows[23_456] = ['too', 'many', 'fields', 'here'];
    const expected = (() => {
      try {
        planUpload(header, rows, mapping);
      } catch (error) {
        return error;
      }
    })();
    expect(expected).toBeInstanceOf(Error);
    const calls: number[] = [];
    await expect(planUploadInSteps(header, rows, mapping, { every: 10_000, progress: async (n) => void calls.push(n) })).rejects.toEqual(expected);
    expect(calls).toEqual([10_000, 20_000]);
    // Too few numbers is decided at the end, as planUpload decides it.
    await expect(inSteps(table(50), 10)).rejects.toMatchObject({ detail: { error: 'min_contacts_required' } });
    expect((await inSteps(table(50), 10, { minimum: 0 })).plan).toEqual(planUpload(header, table(50), mapping, { minimum: 0 }));
  });

  it('waits for each progress call before validating on (a single process answers others meanwhile)', async () => {
    const order: string[] = [];
    await planUploadInSteps(header, table(300), mapping, {
      minimum: 0,
      every: 100,
      progress: async (n) => {
        order.push(`start ${n}`);
        await new Promise((r) => setTimeout(r, 5));
        order.push(`end ${n}`);
      },
    });
    expect(order).toEqual(['start 100', 'end 100', 'start 200', 'end 200']);
    await expect(planUploadInSteps(header, table(3), mapping, { every: 0, progress: async () => undefined })).rejects.toThrow(RangeError);
  });
});
