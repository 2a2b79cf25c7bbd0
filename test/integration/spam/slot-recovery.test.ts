import { describe, expect, it } from 'vitest';
import { claimPhone, reserveSlotFor, SLOT_CHANGE_BOUND_MS } from '../../../lambdas/spam/number-repository';
import { recoverSpamSlots } from '../../../lambdas/spam/slot-recovery';
import { useTestService } from '../../support/runtime';
import { json, newOrg } from './helpers';

// The scheduled half of spam slot recovery (the restart half is test/reliability/crash-recovery):
// a slot whose add never wrote its number is given back with its phone once older than the bound,
// never before, and only once.
const service = useTestService();

describe('spam slot recovery', () => {
  it('gives back the phone and slot of an add that stopped before its number, once it is older than the bound', () => service.clock.run(async () => {
    const org = await newOrg('Interrupted adds', { included: 2 });
    const add = (phone_number: string) => service.request('POST', '/api/v1/spam/numbers', { body: { phone_number }, key: org.key });
    expect((await add('+12023187001')).status).toBe(201);
    // An add that died after its slot and phone (a process killed part-way): the number never came.
    const start = Date.now();
    service.clock.set(() => start);
    const ghost = '00000000-0000-4000-8000-00000000a001';
    expect(await reserveSlotFor(org.id, 2, { numberId: ghost, phone: '+12023187002', at: start })).toBe(true);
    expect(await claimPhone(org.id, '+12023187002', ghost)).toBe(true);
    // The limit (2) is taken and the phone claimed: nothing more can be added.
    expect((await add('+12023187003')).status).toBe(403);
    expect((await add('+12023187002')).status).toBe(409);

    // Younger than the bound: an add may still be writing its number, so nothing is touched.
    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS - 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 0 });
    expect((await add('+12023187003')).status).toBe(403);

    service.clock.set(() => start + SLOT_CHANGE_BOUND_MS + 1_000);
    expect(await recoverSpamSlots()).toEqual({ released: 1 });
    expect(await recoverSpamSlots()).toEqual({ released: 0 });
    expect((await add('+12023187002')).status).toBe(201);
    const listed = await json<{ numbers: { phone_number: string }[] }>(await service.request('GET', '/api/v1/spam/numbers', { key: org.key }));
    expect(listed.numbers.map((n) => n.phone_number).sort()).toEqual(['+12023187001', '+12023187002']);
    // The live numbers keep their slots: the limit is full again.
    expect((await add('+12023187003')).status).toBe(403);
  }));
});
