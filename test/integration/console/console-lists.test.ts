import { describe, expect, it } from 'vitest';
import { consoleToken } from '../../support/console-token';
import { useTestService } from '../../support/runtime';
import { newCustomer } from '../../support/customer';
import { debit } from '../../../lambdas/credits/credits';

// The console's uploads list filters (server side, bounded) and discarding a draft over HTTP.

const service = useTestService();

async function call(token: string, method: string, path: string, body?: unknown, raw?: string) {
  const res = await fetch(`${service.url}/console/api${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': raw ? 'text/csv' : 'application/json' },
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const csv = ['phone', ...Array.from({ length: 110 }, (_, i) => `212-555-${2000 + i}`)].join('\n') + '\n';

describe('console uploads list and discard', () => {
  it('discards a draft not yet confirmed (nothing charged); a confirmed one is 409, another organization’s 404', async () => {
    const token = await consoleToken(service, service.userId);
    const before = (await call(token, 'GET', '/credits')).body.balance;
    const a = (await call(token, 'POST', '/uploads?filename=Keep-Me.csv', undefined, csv)).body.draft.id as string;
    const b = (await call(token, 'POST', '/uploads?filename=drop-me.csv', undefined, csv)).body.draft.id as string;
    await call(token, 'POST', `/uploads/${b}/mapping`, { phone_columns: ['phone'] });
    const other = await newCustomer({ name: 'Other lists', subscriptionActive: true, credits: 0, keys: 0 });
    expect((await call(await consoleToken(service, other.user.id), 'DELETE', `/uploads/${b}`)).status).toBe(404);
    expect(await call(token, 'DELETE', `/uploads/${b}`)).toEqual({ status: 200, body: { id: b, discarded: true } });
    expect((await call(token, 'DELETE', `/uploads/${b}`)).status).toBe(404);
    expect((await call(token, 'GET', `/uploads/${b}`)).status).toBe(404);
    expect((await call(token, 'GET', '/credits')).body.balance).toEqual(before);
    // Search: the drafts and uploads whose file name holds the text, any case.
    const found = await call(token, 'GET', '/uploads?q=keep-ME');
    expect(found.body.drafts.map((d: { id: string }) => d.id)).toEqual([a]);
    expect((await call(token, 'GET', '/uploads?q=drop')).body.drafts).toEqual([]);
    // Confirmed: no longer a draft to discard.
    await call(token, 'POST', `/uploads/${a}/mapping`, { phone_columns: ['phone'] });
    expect((await call(token, 'POST', `/uploads/${a}/confirm`, { validation_tier: 'standard', expected_credits: 110 })).status).toBe(200);
    expect((await call(token, 'DELETE', `/uploads/${a}`)).status).toBe(409);
    const listed = await call(token, 'GET', '/uploads?q=keep&status=ready_for_processing');
    expect(listed.status).toBe(200);
    expect(listed.body.drafts).toEqual([]);
  });

  it('refuses hostile filters in the envelope', async () => {
    const token = await consoleToken(service, service.userId);
    expect((await call(token, 'GET', '/uploads?status=charging')).status).toBe(400);
    expect((await call(token, 'GET', `/uploads?q=${'x'.repeat(256)}`)).status).toBe(400);
    const weird = await call(token, 'GET', `/uploads?q=${encodeURIComponent('.*(["\u0000')}`);
    expect(weird.status).toBe(200);
    expect(weird.body.data).toEqual([]);
  });
});

describe('console credits ledger', () => {
  it('leaves out changes of 0 credits (an api_pool upload’s charge), and still shows the last 100 that moved credits', async () => {
    const customer = await newCustomer({ name: 'Ledger zeros', subscriptionActive: true, credits: 1000, keys: 0 });
    const token = await consoleToken(service, customer.user.id);
    const before = (await call(token, 'GET', '/credits')).body.ledger as { change_id: string }[];
    // 5 real charges, each followed by 60 zero charges: the 5 would fall out of a plain newest-100 window.
    for (let k = 0; k < 5; k++) {
      await debit(customer.org.id, `test:real-${k}`, 1 + k, { reason: `real ${k}`, resourceId: `r${k}` });
      for (let z = 0; z < 60; z++) await debit(customer.org.id, `upload:pool-${k}-${z}`, 0, { reason: 'pool', resourceId: `p${k}-${z}` });
    }
    const { ledger, balance } = (await call(token, 'GET', '/credits')).body as { ledger: { change_id: string; amount: number }[]; balance: { total: number } };
    expect(ledger.map((l) => l.change_id)).toEqual([...[4, 3, 2, 1, 0].map((k) => `test:real-${k}`), ...before.map((l) => l.change_id)]);
    expect(ledger.every((l) => l.amount !== 0)).toBe(true);
    expect(balance.total).toBe(1000 - 15);
  });
});
