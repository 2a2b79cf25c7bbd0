import { describe, expect, it } from 'vitest';
import { nextPrice, placeAttribute, planCountedCharge, priceAt, takenAt, type AlternatingPrice, type PoolName } from '../../../lambdas/credits/counted-price';
import { contactPrice } from '../../../lambdas/contacts/batch-counter';
import { contactCharge } from '../../../lambdas/contacts/contact';

const MAX: AlternatingPrice = { odd: 2, even: 1 };
const pools = (subscription: number, purchased: number) => ({ subscription, purchased });

describe('a price by place, alternating', () => {
  it('is the max batch rule of the contacts feature, place by place', () => {
    const price = contactPrice('max');
    if (!('counter' in price)) throw new Error('max is priced by place');
    for (let place = 1; place <= 41; place++) expect(priceAt(price, place)).toBe(contactCharge('max', place));
    expect(nextPrice(price, 0)).toBe(contactCharge('max', 1));
    expect(nextPrice(price, 1)).toBe(contactCharge('max', 2));
  });

  it('takes from one pool without a guess when the stored next price agrees with the parity', () => {
    expect(planCountedCharge({ pools: pools(5, 0), parity: 0, next: 2 }, MAX)).toEqual({ kind: 'take', pool: 'subscription' });
    expect(planCountedCharge({ pools: pools(2, 9), parity: 0, next: 2 }, MAX)).toEqual({ kind: 'take', pool: 'subscription' });
    expect(planCountedCharge({ pools: pools(0, 9), parity: 1, next: 1 }, MAX)).toEqual({ kind: 'take', pool: 'purchased' });
    expect(planCountedCharge({ pools: pools(1, 0), parity: 1, next: 1 }, MAX)).toEqual({ kind: 'take', pool: 'subscription' });
  });

  it('guards on the parity when the price is split over both pools, and stores the price after it', () => {
    expect(planCountedCharge({ pools: pools(1, 4), parity: 0, next: 2 }, MAX)).toEqual({ kind: 'guarded', parity: 0, amount: 2, split: pools(1, 1), nextAfter: 1 });
  });

  it('guards on the parity when no next price is stored, or one that disagrees with the parity (an earlier version moved it)', () => {
    expect(planCountedCharge({ pools: pools(9, 0), parity: 1, next: null }, MAX)).toEqual({ kind: 'guarded', parity: 1, amount: 1, split: pools(1, 0), nextAfter: 2 });
    expect(planCountedCharge({ pools: pools(9, 0), parity: 0, next: 1 }, MAX)).toEqual({ kind: 'guarded', parity: 0, amount: 2, split: pools(2, 0), nextAfter: 1 });
  });

  it('refuses what the pools cannot cover, at the next place’s own price', () => {
    expect(planCountedCharge({ pools: pools(1, 0), parity: 0, next: 2 }, MAX)).toEqual({ kind: 'insufficient', required: 2, available: 1 });
    expect(planCountedCharge({ pools: pools(0, 0), parity: 1, next: 1 }, MAX)).toEqual({ kind: 'insufficient', required: 1, available: 0 });
    // An even place needs only its own 1.
    expect(planCountedCharge({ pools: pools(0, 1), parity: 1, next: 1 }, MAX)).toEqual({ kind: 'take', pool: 'purchased' });
  });

  it('refuses hostile prices and pools instead of charging them', () => {
    expect(() => planCountedCharge({ pools: pools(5, 5), parity: 0, next: 2 }, { odd: -2, even: 1 })).toThrow();
    expect(() => planCountedCharge({ pools: pools(5, 5), parity: 1, next: 1.5 }, { odd: 2, even: 1.5 })).toThrow();
  });

  it('a take’s mark resolves to the amount of its place, from the pool it named', () => {
    expect(takenAt({ ...MAX, pool: 'subscription' }, 1)).toEqual({ amount: 2, split: pools(2, 0), delta: pools(-2, 0) });
    expect(takenAt({ ...MAX, pool: 'purchased' }, 4)).toEqual({ amount: 1, split: pools(0, 1), delta: pools(0, -1) });
    expect(Object.is(takenAt({ ...MAX, pool: 'purchased' }, 4).delta.subscription, 0)).toBe(true);
    expect(placeAttribute('contact:abc')).toBe('inflight_place#contact:abc');
    expect(placeAttribute('contact:abc')).not.toBe(placeAttribute('contact:abd'));
  });

  it('the take’s arithmetic (price out, price flipped, count up) gives every racing take its own place at its own price', () => {
    // What one take does to the item, as its update expression states it; any order of racing takes.
    for (let run = 0; run < 20; run++) {
      const item = { subscription: 7, purchased: 500, count: 0, parity: 0 as 0 | 1, next: MAX.odd };
      const charged: { place: number; amount: number }[] = [];
      const order = Array.from({ length: 61 }, (_, i) => i).sort(() => Math.random() - 0.5);
      for (const _ of order) {
        const plan = planCountedCharge({ pools: item, parity: item.parity, next: item.next }, MAX);
        if (plan.kind === 'insufficient') break;
        if (plan.kind === 'guarded') {
          item.subscription -= plan.split.subscription;
          item.purchased -= plan.split.purchased;
          item.next = plan.nextAfter;
          charged.push({ place: item.count + 1, amount: plan.amount });
        } else {
          const pool: PoolName = plan.pool;
          const taken = item.next;
          item[pool] -= taken;
          charged.push({ place: item.count + 1, amount: takenAt({ ...MAX, pool }, item.count + 1).amount });
          expect(taken).toBe(charged.at(-1)!.amount);
          item.next = MAX.odd + MAX.even - item.next;
        }
        item.count++;
        item.parity = item.parity === 0 ? 1 : 0;
      }
      expect(charged.map((c) => c.place)).toEqual(Array.from({ length: 61 }, (_, i) => i + 1));
      expect(charged.every((c) => c.amount === contactCharge('max', c.place))).toBe(true);
      expect(charged.reduce((s, c) => s + c.amount, 0)).toBe(Math.ceil(61 * 1.5));
      expect(item.subscription + item.purchased).toBe(507 - Math.ceil(61 * 1.5));
    }
  });
});
