import { describe, expect, it } from 'vitest';
import { addMonths, periodsElapsed, replenishedSubscription, splitDebit, splitRefund } from '../../../lambdas/credits/balance-rules';

describe('credit pools', () => {
  it('debits the subscription pool first, then purchased', () => {
    expect(splitDebit({ subscription: 10, purchased: 5 }, 4)).toEqual({ subscription: 4, purchased: 0 });
    expect(splitDebit({ subscription: 10, purchased: 5 }, 12)).toEqual({ subscription: 10, purchased: 2 });
    expect(splitDebit({ subscription: 0, purchased: 5 }, 5)).toEqual({ subscription: 0, purchased: 5 });
  });

  it('refuses a debit the total cannot cover, and invalid amounts', () => {
    expect(splitDebit({ subscription: 1, purchased: 1 }, 3)).toBeNull();
    expect(() => splitDebit({ subscription: 1, purchased: 1 }, -1)).toThrow();
    expect(() => splitDebit({ subscription: 1, purchased: 1 }, 1.5)).toThrow();
  });

  it('refunds to the original pools, overflowing the cap into purchased', () => {
    expect(splitRefund({ subscription: 0, purchased: 0 }, { subscription: 3, purchased: 2 }, 100)).toEqual({ subscription: 3, purchased: 2 });
    expect(splitRefund({ subscription: 99, purchased: 0 }, { subscription: 3, purchased: 2 }, 100)).toEqual({ subscription: 1, purchased: 4 });
    expect(splitRefund({ subscription: 500, purchased: 0 }, { subscription: 3, purchased: 0 }, null)).toEqual({ subscription: 3, purchased: 0 });
  });

  it('replenishes up to the cap and never takes credits away', () => {
    expect(replenishedSubscription(100, 1000, 1500)).toBe(1100);
    expect(replenishedSubscription(900, 1000, 1500)).toBe(1500);
    expect(replenishedSubscription(2000, 1000, 1500)).toBe(2000);
    expect(replenishedSubscription(5, 10, null)).toBe(15);
  });

  it('counts whole monthly periods', () => {
    const anchor = '2026-01-31T10:00:00.000Z';
    expect(periodsElapsed(anchor, Date.parse('2026-02-27T10:00:00.000Z'))).toBe(0);
    expect(periodsElapsed(anchor, Date.parse('2026-03-31T10:00:00.000Z'))).toBe(2);
    expect(periodsElapsed('2026-05-10T00:00:00.000Z', Date.parse('2026-06-10T00:00:00.000Z'))).toBe(1);
    expect(periodsElapsed('2026-05-10T12:00:00.000Z', Date.parse('2026-06-10T11:59:59.000Z'))).toBe(0);
    expect(addMonths('2026-05-10T12:00:00.000Z', 2)).toBe('2026-07-10T12:00:00.000Z');
  });
});
