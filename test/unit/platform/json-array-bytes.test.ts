import { describe, expect, it } from 'vitest';
import { jsonArrayBytes } from '../../../lambdas/platform/json-array-bytes';

const whole = (items: unknown[]): Buffer => Buffer.from(JSON.stringify(items));

describe('jsonArrayBytes', () => {
  it('writes the bytes JSON.stringify writes for the whole array, across pieces', () => {
    for (const n of [0, 1, 255, 256, 257, 512, 5_000]) {
      const items = Array.from({ length: n }, (_, i) => ({ key: `+1555${i}|${JSON.stringify({ first: 'Zoë', last: `"O'Neil" ${i}` })}`, e164: `+1555${i}`, ...(i % 3 ? { name: { first: 'Élodie', last: 'Côté\n🙂' } } : {}) }));
      expect(jsonArrayBytes(items).equals(whole(items)), `${n} items`).toBe(true);
    }
  });

  it('writes what JSON leaves out of an array as null, as JSON.stringify does', () => {
    const items = [undefined, () => 1, Symbol('s'), null, 'x', 1.5, { a: undefined, b: [undefined] }];
    expect(jsonArrayBytes(items).toString('utf8')).toBe(JSON.stringify(items));
    const many = Array.from({ length: 700 }, (_, i) => (i % 2 ? undefined : i));
    expect(jsonArrayBytes(many).equals(whole(many))).toBe(true);
  });

  it('uses toJSON as JSON.stringify does', () => {
    const items = Array.from({ length: 300 }, (_, i) => (i % 2 ? new Date(Date.UTC(2026, 0, 1, 0, 0, i)) : { toJSON: () => `item ${i}` }));
    expect(jsonArrayBytes(items).equals(whole(items))).toBe(true);
  });
});
