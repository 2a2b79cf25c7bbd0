import { describe, expect, it } from 'vitest';
import { TenantBudgets } from '../../../local/tenant-budgets';
import { tooSlow, windowMinimum, checkRateRule } from '../../../local/body-rate';

const settled = async <T>(p: Promise<T>): Promise<boolean> => {
  let done = false;
  void p.then(() => (done = true));
  // Every pending promise job runs before the next turn of the event loop.
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('TenantBudgets', () => {
  it("one organization at its budget never makes another's request wait", async () => {
    const budgets = new TenantBudgets({ perOrganization: 20, anonymous: 1, total: 80 });
    const a1 = await budgets.acquire('org-a', 10);
    await budgets.acquire('org-a', 10);
    const a3 = budgets.acquire('org-a', 10);
    expect(await settled(a3)).toBe(false);
    expect(budgets.queued('org-a')).toBe(1);
    // org-b gets its whole budget at once.
    const b = await budgets.acquire('org-b', 20);
    expect(budgets.inUse('org-b')).toBe(20);
    expect(budgets.inUse()).toBe(40);
    a1();
    expect(await settled(a3)).toBe(true);
    b();
    expect(budgets.inUse('org-b')).toBe(0);
  });

  it('requests without an organization share the small anonymous budget, apart from every organization', async () => {
    const budgets = new TenantBudgets({ perOrganization: 20, anonymous: 4, total: 80 });
    const first = await budgets.acquire(null, 4);
    const second = budgets.acquire(null, 1);
    expect(await settled(second)).toBe(false);
    const org = await budgets.acquire('org-a', 10);
    expect(budgets.inUse('org-a')).toBe(10);
    first();
    expect(await settled(second)).toBe(true);
    org();
  });

  it('the total bounds everyone: several organizations at their full budgets fill it, and a further one waits for it', async () => {
    const budgets = new TenantBudgets({ perOrganization: 20, anonymous: 1, total: 40 });
    const a = await budgets.acquire('org-a', 20);
    await budgets.acquire('org-b', 20);
    const c = budgets.acquire('org-c', 5);
    expect(await settled(c)).toBe(false);
    a();
    expect(await settled(c)).toBe(true);
    expect(budgets.inUse()).toBe(25);
  });

  it('forgets an organization once it holds and awaits nothing', async () => {
    const budgets = new TenantBudgets({ perOrganization: 20, anonymous: 1, total: 80 });
    const releases = await Promise.all(Array.from({ length: 50 }, (_, i) => budgets.acquire(`org-${i}`, 1)));
    expect(budgets.activeOrganizations).toBe(50);
    for (const release of releases) release();
    expect(budgets.activeOrganizations).toBe(0);
    expect(budgets.inUse()).toBe(0);
  });

  it('refuses a total smaller than one organization, and a budget that is not positive', () => {
    expect(() => new TenantBudgets({ perOrganization: 20, anonymous: 1, total: 10 })).toThrow(/must hold at least one organization/);
    expect(() => new TenantBudgets({ perOrganization: 0, anonymous: 1, total: 10 })).toThrow(/must be positive/);
    expect(() => new TenantBudgets({ perOrganization: 1, anonymous: -1, total: 10 })).toThrow(/must be positive/);
  });
});

describe('the minimum body rate', () => {
  it('a window must bring bytesPerSecond × its length', () => {
    const rule = { bytesPerSecond: 1024, windowMs: 10_000 };
    expect(windowMinimum(rule)).toBe(10_240);
    expect(tooSlow(10_239, rule)).toBe(true);
    expect(tooSlow(10_240, rule)).toBe(false);
    // A byte every few hundred milliseconds is far below it.
    expect(tooSlow(Math.floor(10_000 / 300), rule)).toBe(true);
  });

  it('a fraction rounds up, and a rule of 0 bytes per second never cuts', () => {
    expect(windowMinimum({ bytesPerSecond: 1, windowMs: 1_500 })).toBe(2);
    expect(tooSlow(0, { bytesPerSecond: 0, windowMs: 1_000 })).toBe(false);
  });

  it('refuses rules that are not numbers of bytes and milliseconds', () => {
    expect(() => checkRateRule({ bytesPerSecond: -1, windowMs: 1_000 })).toThrow(/non-negative/);
    expect(() => checkRateRule({ bytesPerSecond: Number.NaN, windowMs: 1_000 })).toThrow(/non-negative/);
    expect(() => checkRateRule({ bytesPerSecond: 1, windowMs: 0 })).toThrow(/positive number of milliseconds/);
    expect(() => checkRateRule({ bytesPerSecond: 1, windowMs: Number.POSITIVE_INFINITY })).toThrow(/positive number of milliseconds/);
  });
});
