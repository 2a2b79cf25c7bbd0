import { afterEach, describe, expect, it } from 'vitest';
import * as admin from '../../../lambdas/admin/admin';
import { useTestService } from '../../support/runtime';
import { addVerified, eventsOf, json, newOrg } from './helpers';

const service = useTestService();
const DAY = 86_400_000;
// 2030-01-02 is epoch day 21916 (even): the 0668 simulator number is flagged on even days.
const EVEN_DAY_NOON = Date.parse('2030-01-02T12:00:00Z');
const atDay = (n: number) => service.clock.set(() => EVEN_DAY_NOON + n * DAY);

afterEach(() => service.clock.set(null));

describe('daily runs across days', () => {
  it('raises exactly one spam.detected per carrier while a number stays flagged', () => service.clock.run(async () => {
    const org = await newOrg('Always flagged');
    const id = await addVerified(service, org.key, '+12023180666');
    for (let day = 0; day < 4; day++) {
      atDay(day);
      await admin.runSpamTestsNow(service.runtime.ports, org.id);
    }
    // Running the same day again changes nothing either.
    await admin.runSpamTestsNow(service.runtime.ports, org.id);
    const events = await eventsOf(org.id, 'spam.detected');
    expect(events.map((e) => e.data.carrier).sort()).toEqual(['at&t', 't-mobile', 'verizon']);
    const att = events.find((e) => e.data.carrier === 'at&t')!;
    expect(att.data).toEqual({
      number_id: id,
      phone_number: '+12023180666',
      carrier: 'at&t',
      spam_label: 'Suspected Spam',
      sip_response_code: '200',
      caller_id_verified: false,
      same_carrier_warning: true,
      test_run_id: expect.any(String),
      screenshot_available: true,
      detected_at: expect.any(String),
    });
    expect(att.id).toMatch(/^evt_[0-9a-f]{32}$/);

    // History: one row per carrier per day, newest first, within 7 days.
    const history = await json<{ total: number; results: { tested_at: string; carrier: string }[] }>(
      await service.request('GET', `/api/v1/spam/numbers/${id}/history`, { key: org.key }),
    );
    expect(history.total).toBe(12);
    const times = history.results.map((r) => r.tested_at);
    expect([...times].sort().reverse()).toEqual(times);
    // Each day keeps its own three rows.
    expect(history.results.filter((r) => r.tested_at.startsWith('2030-01-02')).length).toBe(3);
  }));

  it('fires again after the number turned clean and was flagged once more', () => service.clock.run(async () => {
    const org = await newOrg('Flip flop');
    await addVerified(service, org.key, '+12023180668');
    const perDay: number[] = [];
    for (let day = 0; day < 5; day++) {
      atDay(day);
      perDay.push((await admin.runSpamTestsNow(service.runtime.ports, org.id)).spam_detected_events);
    }
    // flagged, clean, flagged, clean, flagged
    expect(perDay).toEqual([3, 0, 3, 0, 3]);
    expect(await eventsOf(org.id, 'spam.detected')).toHaveLength(9);
  }));

  it('history covers only the last 7 days even though the embedded table keeps expired rows', () => service.clock.run(async () => {
    const org = await newOrg('Window');
    const id = await addVerified(service, org.key, '+12023180124');
    for (const day of [0, 1, 9]) {
      atDay(day);
      await admin.runSpamTestsNow(service.runtime.ports, org.id);
    }
    const history = await json<{ total: number; results: { tested_at: string }[] }>(
      await service.request('GET', `/api/v1/spam/numbers/${id}/history`, { key: org.key }),
    );
    expect(history.total).toBe(3);
    expect(history.results.every((r) => r.tested_at.startsWith('2030-01-11'))).toBe(true);
    // A screenshot older than 7 days is not served; today's is.
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot`, { key: org.key })).status).toBe(200);
    atDay(17);
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot`, { key: org.key })).status).toBe(404);
  }));

  it('tests only the oldest numbers up to the limit; the rest are paused, and resume when the limit grows', () => service.clock.run(async () => {
    const org = await newOrg('Downgraded', { included: 3, addons: 0 });
    const ids = [];
    for (const phone of ['+12023180201', '+12023180202', '+12023180203']) ids.push(await addVerified(service, org.key, phone));
    await admin.setSpamLimit(org.id, 1, 1); // downgrade: 2 numbers
    const run = await admin.runSpamTestsNow(service.runtime.ports, org.id);
    expect(run).toMatchObject({ numbers_tested: 2, numbers_beyond_limit: 1 });
    const list = await json<{ numbers: { id: string; status: string; carrier_statuses: unknown[] }[]; spam_monitoring_limit: number }>(
      await service.request('GET', '/api/v1/spam/numbers', { key: org.key }),
    );
    expect(list.spam_monitoring_limit).toBe(2);
    expect(list.numbers.map((n) => [n.id, n.status, n.carrier_statuses.length])).toEqual([
      [ids[0], 'active', 3],
      [ids[1], 'active', 3],
      [ids[2], 'paused', 0],
    ]);
    expect((await json<{ status: string }>(await service.request('GET', `/api/v1/spam/numbers/${ids[2]}`, { key: org.key }))).status).toBe('paused');
    // A page that starts past the first number says the same by each number's place in the order.
    const page = await json<{ numbers: { id: string; status: string }[]; total: number }>(await service.request('GET', '/api/v1/spam/numbers?limit=2&offset=1', { key: org.key }));
    expect([page.numbers.map((n) => [n.id, n.status]), page.total]).toEqual([[[ids[1], 'active'], [ids[2], 'paused']], 3]);
    // Kept numbers still count: adding is refused at the limit.
    expect((await service.request('POST', '/api/v1/spam/numbers', { body: { phone_number: '+12023180204' }, key: org.key })).status).toBe(403);

    await admin.setSpamLimit(org.id, 1, 2); // buys an add-on
    expect((await json<{ status: string }>(await service.request('GET', `/api/v1/spam/numbers/${ids[2]}`, { key: org.key }))).status).toBe('active');
    expect((await admin.runSpamTestsNow(service.runtime.ports, org.id)).numbers_tested).toBe(3);

    await admin.setSpamLimit(org.id, null, 0); // no cap
    const uncapped = await json<{ spam_monitoring_limit: number | null }>(await service.request('GET', '/api/v1/spam/numbers', { key: org.key }));
    expect(uncapped.spam_monitoring_limit).toBeNull();
  }));

  it('skips organizations whose subscription lapsed, keeping their numbers', () => service.clock.run(async () => {
    const org = await newOrg('Lapsed');
    await addVerified(service, org.key, '+12023180205');
    await admin.setSubscription(org.id, false);
    expect(await admin.runSpamTestsNow(service.runtime.ports, org.id)).toMatchObject({ numbers_tested: 0, skipped_organizations: 1 });
    await admin.setSubscription(org.id, true);
    expect((await admin.runSpamTestsNow(service.runtime.ports, org.id)).numbers_tested).toBe(1);
  }));
});
