import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { chargeOf, clearRecordedInflightMarks, debit, getBalance, InsufficientCreditsError, refund, replenishIfDue } from '../../../lambdas/credits/credits';
import { getLedgerEntry } from '../../../lambdas/credits/balance-repository';

const service = useTestService();

describe('credits module against the embedded table', () => {
  it('200 parallel debits of 1 against a balance of 100 succeed exactly 100 times', async () => {
    const org = await admin.createOrganization({ name: 'Race', monthlyAllocation: 40, credits: 60 });
    const results = await Promise.allSettled(
      Array.from({ length: 200 }, (_, i) => debit(org.id, `race:${i}`, 1, { reason: 'test', resourceId: `race-${i}` })),
    );
    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r) => r.status === 'rejected');
    expect(ok).toHaveLength(100);
    expect(refused.every((r) => (r as PromiseRejectedResult).reason instanceof InsufficientCreditsError)).toBe(true);
    expect(await getBalance(org.id)).toEqual({ total: 0, subscription: 0, purchased: 0 });
  });

  it('charges one change id once, and refunds it once, to the pools it came from', async () => {
    const org = await admin.createOrganization({ name: 'Once', monthlyAllocation: 5, credits: 10 });
    const first = await debit(org.id, 'upload:abc', 8, { reason: 'upload', resourceId: 'abc' });
    expect(first).toMatchObject({ amount: 8, split: { subscription: 5, purchased: 3 }, replayed: false });
    const again = await debit(org.id, 'upload:abc', 8, { reason: 'upload', resourceId: 'abc' });
    expect(again.replayed).toBe(true);
    expect(await getBalance(org.id)).toEqual({ total: 7, subscription: 0, purchased: 7 });

    const [r1, r2] = await Promise.all([
      refund(org.id, 'refund:upload:abc', 'upload:abc', { reason: 'failed', resourceId: 'abc' }),
      refund(org.id, 'refund:upload:abc', 'upload:abc', { reason: 'failed', resourceId: 'abc' }),
    ]);
    expect([r1?.amount, r2?.amount]).toEqual([8, 8]);
    expect(await getBalance(org.id)).toEqual({ total: 15, subscription: 5, purchased: 10 });
    expect(await getLedgerEntry(org.id, 'refund:upload:abc')).toMatchObject({ kind: 'refund', refunds_change_id: 'upload:abc' });
  });

  it('refuses a debit larger than the balance and changes nothing', async () => {
    const org = await admin.createOrganization({ name: 'Poor', credits: 3 });
    await expect(debit(org.id, 'big', 4, { reason: 'x', resourceId: 'big' })).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(await getBalance(org.id)).toEqual({ total: 3, subscription: 0, purchased: 3 });
    expect(await getLedgerEntry(org.id, 'big')).toBeNull();
  });

  it('a crash between the pool write and the ledger entry is finished by the retry, not charged twice', async () => {
    const org = await admin.createOrganization({ name: 'Crash', credits: 10 });
    const { applyPoolDelta } = await import('../../../lambdas/credits/balance-repository');
    // The first attempt took the credits and died before writing its ledger entry.
    expect(await applyPoolDelta(org.id, 'upload:crash', { subscription: 0, purchased: -4 }, { kind: 'none' }, new Date().toISOString())).toBe(true);
    const retry = await debit(org.id, 'upload:crash', 4, { reason: 'upload', resourceId: 'crash' });
    expect(retry.replayed).toBe(true);
    expect(await getBalance(org.id)).toEqual({ total: 6, subscription: 0, purchased: 6 });
    expect(await getLedgerEntry(org.id, 'upload:crash')).toMatchObject({ purchased_delta: -4 });
  });

  it('recovery clears in-flight marks already in the ledger and leaves the unrecorded ones to their resource', async () => {
    const org = await admin.createOrganization({ name: 'Marks', credits: 10 });
    const { applyPoolDelta, getBalanceItem, putLedgerEntry } = await import('../../../lambdas/credits/balance-repository');
    const at = new Date().toISOString();
    // Recorded, then the process died before the clear; and applied, then died before the ledger.
    expect(await applyPoolDelta(org.id, 'upload:recorded', { subscription: 0, purchased: -2 }, { kind: 'none' }, at)).toBe(true);
    await putLedgerEntry({ change_id: 'upload:recorded', organization_id: org.id, kind: 'debit', subscription_delta: 0, purchased_delta: -2, reason: 'upload', resource_id: null, refunds_change_id: null, created_at: at });
    expect(await applyPoolDelta(org.id, 'upload:unrecorded', { subscription: 0, purchased: -3 }, { kind: 'none' }, at)).toBe(true);
    const { cleared } = await clearRecordedInflightMarks();
    expect(cleared).toBeGreaterThanOrEqual(1);
    expect(Object.keys((await getBalanceItem(org.id))!.inflight)).toEqual(['upload:unrecorded']);
    // The unrecorded one is the upload's recovery's to record (chargeOf), which clears it too.
    expect(await chargeOf(org.id, 'upload:unrecorded', 'unrecorded')).toMatchObject({ amount: 3 });
    // Recorded by recovery, the entry names the resource it paid for like any other.
    expect(await getLedgerEntry(org.id, 'upload:unrecorded')).toMatchObject({ kind: 'debit', purchased_delta: -3, resource_id: 'unrecorded' });
    expect(Object.keys((await getBalanceItem(org.id))!.inflight)).toEqual([]);
    expect(await getBalance(org.id)).toEqual({ total: 5, subscription: 0, purchased: 5 });
  });

  it('a refund of a debit a crash left unrecorded records both, each naming the resource', async () => {
    const org = await admin.createOrganization({ name: 'Unrecorded refund', credits: 10 });
    const { applyPoolDelta } = await import('../../../lambdas/credits/balance-repository');
    expect(await applyPoolDelta(org.id, 'contact:c1', { subscription: 0, purchased: -2 }, { kind: 'none' }, new Date().toISOString())).toBe(true);
    expect(await refund(org.id, 'refund:contact:c1', 'contact:c1', { reason: 'contact failed', resourceId: 'c1' })).toMatchObject({ amount: 2 });
    expect(await getLedgerEntry(org.id, 'contact:c1')).toMatchObject({ kind: 'debit', purchased_delta: -2, resource_id: 'c1' });
    expect(await getLedgerEntry(org.id, 'refund:contact:c1')).toMatchObject({ kind: 'refund', purchased_delta: 2, resource_id: 'c1', refunds_change_id: 'contact:c1' });
    expect(await getBalance(org.id)).toEqual({ total: 10, subscription: 0, purchased: 10 });
  });

  it('replenishes the subscription pool once per billing period, capped', () => service.clock.run(async () => {
    const org = await admin.createOrganization({ name: 'Monthly', monthlyAllocation: 100 });
    await admin.setAllocation(org.id, 100, 150);
    await debit(org.id, 'use', 30, { reason: 'x', resourceId: 'use' });
    expect(await replenishIfDue(org.id)).toBe(false);
    const start = Date.now();
    service.clock.set(() => start + 32 * 86_400_000);
    try {
      expect(await replenishIfDue(org.id)).toBe(true);
      expect(await replenishIfDue(org.id)).toBe(false);
    } finally {
      service.clock.set(null);
    }
    expect(await getBalance(org.id)).toEqual({ total: 150, subscription: 150, purchased: 0 });
  }));
});

describe('billing period job', () => {
  it('replenishes every organization whose period ended, once', () => service.clock.run(async () => {
    const { runBillingPeriodJob } = await import('../../../lambdas/credits/billing-period-job');
    const org = await admin.createOrganization({ name: 'Job', monthlyAllocation: 10 });
    await debit(org.id, 'spend', 10, { reason: 'x', resourceId: 'spend' });
    const start = Date.now();
    service.clock.set(() => start + 40 * 86_400_000);
    try {
      const first = await runBillingPeriodJob();
      expect(first.replenished).toBeGreaterThanOrEqual(1);
      expect(await getBalance(org.id)).toEqual({ total: 10, subscription: 10, purchased: 0 });
      await runBillingPeriodJob();
      expect(await getBalance(org.id)).toEqual({ total: 10, subscription: 10, purchased: 0 });
    } finally {
      service.clock.set(null);
    }
  }));
});
