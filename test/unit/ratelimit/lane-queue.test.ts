import { describe, expect, it } from 'vitest';
import { laneQueue } from '../../../lambdas/ratelimit/lane-queue';

describe('lane queue: callers waiting on the rate, served in turn by upload', () => {
  it('serves one caller of each lane in turn, callers of a lane in order', () => {
    const q = laneQueue<string>();
    for (let i = 0; i < 4; i++) q.push('large', `L${i}`);
    q.push('small', 'S0');
    q.push('small', 'S1');
    expect(q.size).toBe(6);
    const order = Array.from({ length: 6 }, () => q.shift());
    expect(order).toEqual(['L0', 'S0', 'L1', 'S1', 'L2', 'L3']);
    expect(q.size).toBe(0);
    expect(q.shift()).toBeUndefined();
  });

  it('a lane that comes back after emptying joins the end of the turn', () => {
    const q = laneQueue<string>();
    q.push('a', 'a0');
    q.push('b', 'b0');
    q.push('b', 'b1');
    expect(q.shift()).toBe('a0');
    q.push('a', 'a1');
    q.push('c', 'c0');
    expect([q.shift(), q.shift(), q.shift(), q.shift()]).toEqual(['b0', 'a1', 'c0', 'b1']);
  });

  it('hostile lane names are lanes like any other', () => {
    const q = laneQueue<number>();
    for (const lane of ['__proto__', 'constructor', '', '\u0000']) q.push(lane, lane.length);
    expect([q.shift(), q.shift(), q.shift(), q.shift(), q.shift()]).toEqual([9, 11, 0, 1, undefined]);
  });
});
