import { describe, expect, it } from 'vitest';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { db, tableName } from '../../../lambdas/platform/table';
import { chargeOf, getBalance, InsufficientCreditsError } from '../../../lambdas/credits/credits';
import { getBalanceItem, getLedgerEntry } from '../../../lambdas/credits/balance-repository';
import { chargeBeforeWrite, reverseUnrecorded, type PendingCharge } from '../../../lambdas/credits/charge-before-write';
import { closeBatch, contactPrice, MAX_BATCH_COUNTER } from '../../../lambdas/contacts/batch-counter';
import { contactCharge } from '../../../lambdas/contacts/contact';

// The counted charge against the embedded table: the max batch's place and price taken in one
// write per charge however many race (no guess of the parity to lose), marks that recovery can
// read back with their place and price, and a balance an earlier version's counter left.

useTestService();

const MAX = contactPrice('max');
const charge = (orgId: string, id: string, intent = true) => chargeBeforeWrite(orgId, `contact:${id}`, MAX, { reason: 'contact (max)', resourceId: id, fresh: true, intent });

/** DynamoDB calls by command while `run` runs. */
async function counted<T>(run: () => Promise<T>): Promise<{ result: T; calls: Record<string, number> }> {
  const calls: Record<string, number> = {};
  const name = `count-${Math.random()}`;
  db().middlewareStack.add(
    (next, context) => (args) => {
      const command = String((context as { commandName?: string }).commandName);
      calls[command] = (calls[command] ?? 0) + 1;
      return next(args);
    },
    { step: 'initialize', name },
  );
  try {
    return { result: await run(), calls };
  } finally {
    db().middlewareStack.remove(name);
  }
}

const rawBalance = async (orgId: string) => (await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `ORG#${orgId}`, sk: 'BALANCE' }, ConsistentRead: true }))).Item!;

describe('max batch charges on the balance item', () => {
  it('120 racing charges: one balance write each, every place once at its own price, the rest refused for credits', async () => {
    const org = await admin.createOrganization({ name: 'Racing max', credits: 121 });
    await charge(org.id, 'warm-0'); // stores the next price: from here on every charge is a take
    const { result, calls } = await counted(() => Promise.allSettled(Array.from({ length: 120 }, (_, i) => charge(org.id, `race-${i}`))));
    const ok = result.filter((r): r is PromiseFulfilledResult<PendingCharge> => r.status === 'fulfilled').map((r) => r.value);
    const refused = result.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.every((r) => r.reason instanceof InsufficientCreditsError)).toBe(true);
    // Places 2.. with no hole and no repeat, each at the rule's price.
    expect(ok.map((c) => c.place).sort((a, b) => a! - b!)).toEqual(Array.from({ length: ok.length }, (_, i) => i + 2));
    expect(ok.every((c) => c.amount === contactCharge('max', c.place!))).toBe(true);
    // 119 credits after the first place's 2: places 2..80 cost 1 + ceil(78 × 1.5) = 118, place 81 needs 2 with 1 left.
    expect(ok).toHaveLength(79);
    expect((await getBalance(org.id)).total).toBe(121 - 2 - ok.reduce((sum, c) => sum + c.amount, 0));
    expect((await getBalance(org.id)).total).toBe(1);
    // One write per charge (a refused one: its write, then one read that finds the pools short).
    expect(calls.UpdateItemCommand).toBe(120);
    expect(calls.GetItemCommand ?? 0).toBe(refused.length);
  });

  it('a take cut short before its ledger entry: its mark reads back with its place and price, recorded or given back once', async () => {
    const org = await admin.createOrganization({ name: 'Cut take', credits: 10 });
    const first = await charge(org.id, 'c1');
    const second = await charge(org.id, 'c2', false);
    expect([first.place, first.amount, second.place, second.amount]).toEqual([1, 2, 2, 1]);
    const item = await getBalanceItem(org.id);
    expect(item!.inflight['contact:c1']).toMatchObject({ subscription: 0, purchased: -2, place: 1, intent: true });
    expect(item!.inflight['contact:c2']).toMatchObject({ subscription: 0, purchased: -1, place: 2 });
    // Recovery of a claimed create records it from the mark, at its place.
    expect(await chargeOf(org.id, 'contact:c1', 'c1')).toMatchObject({ amount: 2, place: 1, split: { subscription: 0, purchased: 2 } });
    expect(await getLedgerEntry(org.id, 'contact:c1')).toMatchObject({ purchased_delta: -2, place: 1 });
    // Recovery of an unclaimed one gives back exactly what it took, once, and leaves nothing behind.
    expect(await reverseUnrecorded(org.id, 'contact:c2')).toBe(true);
    expect(await reverseUnrecorded(org.id, 'contact:c2')).toBe(false);
    expect((await getBalance(org.id)).total).toBe(8);
    const raw = await rawBalance(org.id);
    expect(Object.keys(raw).filter((name) => name.startsWith('inflight_place#'))).toEqual([]);
    expect(raw.inflight).toEqual({});
  });

  it('an earlier version’s counter (count and parity, no next price): the first charge guards on the parity, then takes follow', async () => {
    const org = await admin.createOrganization({ name: 'Old counter', credits: 10 });
    await db().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: { pk: `ORG#${org.id}`, sk: 'BALANCE' },
        UpdateExpression: 'SET #c = :five, #p = :one',
        ExpressionAttributeNames: { '#c': MAX_BATCH_COUNTER, '#p': `${MAX_BATCH_COUNTER}_parity` },
        ExpressionAttributeValues: { ':five': 5, ':one': 1 },
      }),
    );
    const sixth = await charge(org.id, 'o6');
    expect([sixth.place, sixth.amount]).toEqual([6, 1]);
    const { result: seventh, calls } = await counted(() => charge(org.id, 'o7'));
    expect([seventh.place, seventh.amount]).toEqual([7, 2]);
    expect(calls).toEqual({ UpdateItemCommand: 1 });
    expect((await getBalance(org.id)).total).toBe(7);
  });

  it('a price split over both pools is taken guarded, the next from the purchased pool; a closed batch starts again at 2', async () => {
    const org = await admin.createOrganization({ name: 'Split pools', monthlyAllocation: 1, credits: 5 });
    await closeBatch(org.id);
    const first = await charge(org.id, 's1');
    expect(first).toMatchObject({ place: 1, amount: 2, split: { subscription: 1, purchased: 1 } });
    const second = await charge(org.id, 's2');
    expect(second).toMatchObject({ place: 2, amount: 1, split: { subscription: 0, purchased: 1 } });
    await closeBatch(org.id);
    const { result: again, calls } = await counted(() => charge(org.id, 's3'));
    expect(again).toMatchObject({ place: 1, amount: 2, split: { subscription: 0, purchased: 2 } });
    expect(calls).toEqual({ UpdateItemCommand: 1 });
    // The last credit pays for an even place; the odd one after it is refused and takes no place.
    expect(await charge(org.id, 's4')).toMatchObject({ place: 2, amount: 1 });
    await expect(charge(org.id, 's5')).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(await getBalance(org.id)).toEqual({ total: 0, subscription: 0, purchased: 0 });
    expect((await rawBalance(org.id))[MAX_BATCH_COUNTER]).toBe(2);
  });
});
