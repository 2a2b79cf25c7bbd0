import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { claimPhone, deleteNumberItem, holdSlotAgain, markDeleting, releaseSlotOf, reserveSlotFor, settleSlot, SLOT_CHANGE_BOUND_MS } from '../../../lambdas/spam/number-repository';
import { recoverSpamSlots } from '../../../lambdas/spam/slot-recovery';
import { db, tableName } from '../../../lambdas/platform/table';
import { useTestService } from '../../support/runtime';
import { json, newOrg } from './helpers';

// Spam slots: a number holds its slot on the organization's counter only while its add or delete is
// under way, so the counter item stays small however many numbers are monitored; recovery (the
// scheduled half here, the restart half in test/reliability/crash-recovery) gives back the slot of
// a number that never came or is gone, and settles the slot of one that exists, each once.
const service = useTestService();

/** The organization's slot counter as stored: the count and the slots on it. */
async function counter(orgId: string): Promise<{ count: number; slots: string[] }> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: { pk: `ORG#${orgId}`, sk: 'SPAMNUMS#COUNT' }, ConsistentRead: true }));
  return { count: Number(out.Item?.count ?? 0), slots: Object.keys(out.Item ?? {}).filter((k) => k.startsWith('slot_')).map((k) => k.slice('slot_'.length)) };
}

describe('spam slots', () => {
  const add = (key: string, phone_number: string) => service.request('POST', '/api/v1/spam/numbers', { body: { phone_number }, key });
  const remove = (key: string, id: string) => service.request('DELETE', `/api/v1/spam/numbers/${id}`, { key });
  const idOf = async (response: Response) => (await json<{ number: { id: string } }>(response)).number.id;

  it('an added number holds its slot without a trace on the counter; the count still holds the limit', async () => {
    const org = await newOrg('Settled slots', { included: 3 });
    const ids = [];
    for (const phone of ['+12023187101', '+12023187102', '+12023187103']) {
      const added = await add(org.key, phone);
      expect(added.status).toBe(201);
      ids.push(await idOf(added));
    }
    expect(await counter(org.id)).toEqual({ count: 3, slots: [] });
    expect((await add(org.key, '+12023187104')).status).toBe(403);
    expect((await remove(org.key, ids[1]!)).status).toBe(200);
    expect(await counter(org.id)).toEqual({ count: 2, slots: [] });
    expect((await add(org.key, '+12023187104')).status).toBe(201);
    expect((await add(org.key, '+12023187105')).status).toBe(403);
  });

  it('a duplicate add beside a real one at the limit never costs the real one its slot (409 before any slot)', async () => {
    const org = await newOrg('Duplicates at the limit', { included: 2 });
    expect((await add(org.key, '+12023187601')).status).toBe(201);
    for (let trial = 0; trial < 10; trial++) {
      // The duplicates sent first, so that their adds reach the counter before the real one.
      const answers = await Promise.all([...Array.from({ length: 3 }, () => add(org.key, '(202) 318-7601')), add(org.key, '+12023187602')]);
      const fresh = answers.pop()!;
      expect([...answers.map((d) => d.status), fresh.status], `trial ${trial}`).toEqual([409, 409, 409, 201]);
      expect((await remove(org.key, await idOf(fresh))).status).toBe(200);
    }
    expect(await counter(org.id)).toEqual({ count: 1, slots: [] });
  });

  it('gives back the phone and slot of an add that stopped before its number, once it is older than the bound', () => service.clock.run(async () => {
    const org = await newOrg('Interrupted adds', { included: 2 });
    expect((await add(org.key, '+12023187001')).status).toBe(201);
    // An add that died after its slot and phone (a process killed part-way): the number never came.
    const start = Date.now();
    service.clock.set(() => start);
    const ghost = '00000000-0000-4000-8000-00000000a001';
    expect(await reserveSlotFor(org.id, 2, { numberId: ghost, phone: '+12023187002', at: start })).toBe(true);
    expect(await claimPhone(org.id, '+12023187002', ghost)).toBe(true);
    // The limit (2) is taken and the phone claimed: nothing more can be added.
    expect((await add(org.key, '+12023187003')).status).toBe(403);
    expect((await add(org.key, '+12023187002')).status).toBe(409);

    // Younger than the bound: an add may still be writing its number, so nothing is touched.
    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS - 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    expect((await add(org.key, '+12023187003')).status).toBe(403);

    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS + 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 1, settled: 0 });
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    expect((await add(org.key, '+12023187002')).status).toBe(201);
    const listed = await json<{ numbers: { phone_number: string }[] }>(await service.request('GET', '/api/v1/spam/numbers', { key: org.key }));
    expect(listed.numbers.map((n) => n.phone_number).sort()).toEqual(['+12023187001', '+12023187002']);
    // The live numbers keep their slots: the limit is full again.
    expect((await add(org.key, '+12023187003')).status).toBe(403);
    expect(await counter(org.id)).toEqual({ count: 2, slots: [] });
  }));

  it('settles, once and still counted, the slot of a number that exists (an add killed before it settled, a number added before slots were settled)', () => service.clock.run(async () => {
    const org = await newOrg('Unsettled slots', { included: 2 });
    const start = Date.now();
    service.clock.set(() => start);
    const id = await idOf(await add(org.key, '+12023187201'));
    // The state such an add leaves: its slot still on the counter beside its number.
    await holdSlotAgain(org.id, { numberId: id, phone: '+12023187201', at: start });
    expect(await counter(org.id)).toEqual({ count: 1, slots: [id] });
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });

    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS + 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 1 });
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    expect(await counter(org.id)).toEqual({ count: 1, slots: [] });
    // Still counted: one more fits, then none; its delete gives it back once.
    expect((await add(org.key, '+12023187202')).status).toBe(201);
    expect((await add(org.key, '+12023187203')).status).toBe(403);
    expect((await remove(org.key, id)).status).toBe(200);
    expect(await counter(org.id)).toEqual({ count: 1, slots: [] });
  }));

  it('a settle that comes after a delete stamped the slot leaves it to the delete', async () => {
    const org = await newOrg('Settle after a delete', { included: 1 });
    const id = await idOf(await add(org.key, '+12023187301'));
    await holdSlotAgain(org.id, { numberId: id, phone: '+12023187301', at: 1_000 });
    await holdSlotAgain(org.id, { numberId: id, phone: '+12023187301', at: 2_000 });
    expect(await settleSlot(org.id, id, 1_000)).toBe(false);
    expect(await counter(org.id)).toEqual({ count: 1, slots: [id] });
    expect(await settleSlot(org.id, id, 2_000)).toBe(true);
    expect(await counter(org.id)).toEqual({ count: 1, slots: [] });
  });

  it('parallel deletes of one number give its slot back once', () => service.clock.run(async () => {
    const org = await newOrg('Parallel deletes', { included: 1 });
    const id = await idOf(await add(org.key, '+12023187401'));
    const statuses = (await Promise.all(Array.from({ length: 6 }, () => remove(org.key, id)))).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 200).every((s) => s === 404 || s === 409)).toBe(true);
    expect(await counter(org.id)).toEqual({ count: 0, slots: [] });
    service.clock.set(() => Date.now() + SLOT_CHANGE_BOUND_MS + 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    service.clock.set(null);
    // Exactly one slot free: a count one too low would let two in.
    expect((await add(org.key, '+12023187402')).status).toBe(201);
    expect((await add(org.key, '+12023187403')).status).toBe(403);
  }));

  it('a delete that stalled past the bound after stamping the slot keeps it from recovery, and gives it back once when it wakes', () => service.clock.run(async () => {
    const org = await newOrg('Stalled then woke', { included: 1 });
    const start = Date.now();
    service.clock.set(() => start);
    const id = await idOf(await add(org.key, '+12023187701'));
    expect(await markDeleting(id, start, start - SLOT_CHANGE_BOUND_MS)).toBe(true);
    await holdSlotAgain(org.id, { numberId: id, phone: '+12023187701', at: start });
    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS + 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    expect(await counter(org.id)).toEqual({ count: 1, slots: [id] });
    // It wakes: the number goes, and the slot it stamped is still there to give back.
    expect(await deleteNumberItem(id, start)).not.toBeNull();
    expect(await releaseSlotOf(org.id, id)).toBe(true);
    expect(await counter(org.id)).toEqual({ count: 0, slots: [] });
  }));

  it('a delete under way answers another 409; one that outlived the bound is taken over, and the slot given back once', () => service.clock.run(async () => {
    const org = await newOrg('Stalled delete', { included: 1 });
    const start = Date.now();
    service.clock.set(() => start);
    const id = await idOf(await add(org.key, '+12023187501'));
    // A first delete that marked the number and stamped its slot, then stalled.
    expect(await markDeleting(id, start, start - SLOT_CHANGE_BOUND_MS)).toBe(true);
    await holdSlotAgain(org.id, { numberId: id, phone: '+12023187501', at: start });
    const conflict = await remove(org.key, id);
    expect(conflict.status).toBe(409);
    expect((await json<{ detail: string }>(conflict)).detail).toMatch(/Another request is deleting this number/);
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}`, { key: org.key })).status).toBe(200);

    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS + 1_000);
    expect((await remove(org.key, id)).status).toBe(200);
    expect(await counter(org.id)).toEqual({ count: 0, slots: [] });
    // The stalled delete wakes: its number is gone, and it gives back nothing more.
    expect(await deleteNumberItem(id, start)).toBeNull();
    expect(await settleSlot(org.id, id, start)).toBe(false);
    expect(await recoverSpamSlots()).toEqual({ released: 0, settled: 0 });
    expect((await add(org.key, '+12023187502')).status).toBe(201);
    expect((await add(org.key, '+12023187503')).status).toBe(403);
  }));
});
