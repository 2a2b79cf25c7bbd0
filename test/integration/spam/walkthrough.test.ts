import { describe, expect, it } from 'vitest';
import jpeg from 'jpeg-js';
import * as admin from '../../../lambdas/admin/admin';
import { useTestService } from '../../support/runtime';
import { addVerified, eventsOf, json, newOrg } from './helpers';

const service = useTestService();

interface CarrierStatus {
  carrier: string;
  status: string;
  spam_detected: boolean | null;
  spam_label: string | null;
  test_run_id: string | null;
  captured_at: string | null;
  screenshot_available: boolean;
  same_carrier_warning: boolean;
  simulated: boolean;
}

describe('spam monitoring walk-through over HTTP', () => {
  it('add → read the simulated code → verify → run → carrier statuses, history and a JPEG screenshot', async () => {
    const org = await newOrg('Walkthrough');
    const add = await service.request('POST', '/api/v1/spam/numbers', { body: { phone_number: '(202) 318-0667', verification_method: 'sms' }, key: org.key });
    expect(add.status).toBe(201);
    const added = await json<{ number: { id: string } & Record<string, unknown>; verification: Record<string, unknown> }>(add);
    expect(added.number).toMatchObject({ phone_number: '+12023180667', verified: false, status: 'active', carrier: null, carrier_statuses: [], same_carrier_warning: false, updated_at: expect.any(String) });
    expect(added.verification).toMatchObject({ required: true, sent: true, method: 'sms', error: null });
    expect(added.verification.instructions).toContain(`/api/v1/spam/numbers/${added.number.id}/verify`);
    const id = added.number.id;

    // Not tested before verification.
    expect((await admin.runSpamTestsNow(service.runtime.ports, org.id)).numbers_tested).toBe(0);

    const [sent] = await admin.spamVerificationCodes('202-318-0667');
    expect(sent).toMatchObject({ number_id: id, method: 'sms', code: expect.stringMatching(/^\d{6}$/) });
    const verify = await service.request('POST', `/api/v1/spam/numbers/${id}/verify`, { body: { code: sent!.code }, key: org.key });
    expect(verify.status).toBe(200);
    expect(await json(verify)).toEqual({ success: true, verified: true, phone_number: '+12023180667', message: expect.any(String) });
    const verified = await eventsOf(org.id, 'number.verified');
    expect(verified).toHaveLength(1);
    expect(verified[0]!.data).toEqual({ number_id: id, phone_number: '+12023180667', carrier: null, status: 'active', verified_at: expect.any(String) });

    const summary = await admin.runSpamTestsNow(service.runtime.ports, org.id);
    expect(summary).toMatchObject({ numbers_tested: 1, tests_completed: 3, tests_failed: 0, spam_detected_events: 1, simulated: true });

    const got = await json<{ carrier: string; verified: boolean; same_carrier_warning: boolean; carrier_statuses: CarrierStatus[] }>(
      await service.request('GET', `/api/v1/spam/numbers/${id}`, { key: org.key }),
    );
    // 0667: flagged on verizon only; its own carrier (last digit 7 → t-mobile) gets the warning.
    expect(got).toMatchObject({ verified: true, carrier: 't-mobile', same_carrier_warning: true });
    expect(got.carrier_statuses.map((s) => [s.carrier, s.status, s.spam_detected, s.spam_label, s.same_carrier_warning, s.screenshot_available, s.simulated])).toEqual([
      ['at&t', 'completed', false, null, false, true, true],
      ['t-mobile', 'completed', false, null, true, true, true],
      ['verizon', 'completed', true, 'Potential Spam', false, true, true],
    ]);
    for (const s of got.carrier_statuses) expect(Date.parse(s.captured_at!)).not.toBeNaN();

    const history = await json<{ number_id: string; phone_number: string; total: number; results: Record<string, unknown>[] }>(
      await service.request('GET', `/api/v1/spam/numbers/${id}/history`, { key: org.key }),
    );
    expect(history).toMatchObject({ number_id: id, phone_number: '+12023180667', total: 3 });
    expect(history.results).toHaveLength(3);
    const verizon = history.results.find((r) => r.carrier === 'verizon');
    expect(verizon).toMatchObject({ status: 'completed', spam_detected: true, spam_label: 'Potential Spam', sip_response_code: '200', caller_id_verified: false, screenshot_available: true });
    expect(verizon!.test_run_id).toBe(got.carrier_statuses[2]!.test_run_id);

    const shot = await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot?carrier=verizon`, { key: org.key });
    expect(shot.status).toBe(200);
    expect(shot.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await shot.arrayBuffer());
    const image = jpeg.decode(bytes, { useTArray: true });
    expect([image.width, image.height]).toEqual([360, 640]);
    expect(bytes.toString('latin1')).toContain('SIMULATED incoming call from +12023180667 on verizon');

    // Without carrier: the most recent across carriers.
    const latest = await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot`, { key: org.key });
    expect(latest.status).toBe(200);
    expect(latest.headers.get('content-type')).toBe('image/jpeg');
    const at = await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot?carrier=at%26t`, { key: org.key });
    expect(Buffer.from(await at.arrayBuffer()).toString('latin1')).toContain('on at&t');

    const list = await json<{ numbers: { id: string; carrier_statuses: unknown[] }[]; spam_monitoring_limit: number | null }>(
      await service.request('GET', '/api/v1/spam/numbers', { key: org.key }),
    );
    expect(list.spam_monitoring_limit).toBe(5);
    expect(list.numbers.map((n) => n.id)).toEqual([id]);
    expect(list.numbers[0]!.carrier_statuses).toHaveLength(3);
  });

  it('a failed carrier test is recorded as failed, with no screenshot for that carrier', async () => {
    const org = await newOrg('Failing carrier');
    const id = await addVerified(service, org.key, '+12023180669');
    expect(await admin.runSpamTestsNow(service.runtime.ports, org.id)).toMatchObject({ tests_completed: 2, tests_failed: 1, spam_detected_events: 0 });
    const got = await json<{ carrier_statuses: CarrierStatus[] }>(await service.request('GET', `/api/v1/spam/numbers/${id}`, { key: org.key }));
    expect(got.carrier_statuses.find((s) => s.carrier === 't-mobile')).toMatchObject({ status: 'failed', spam_detected: null, screenshot_available: false });
    const history = await json<{ results: Record<string, unknown>[] }>(await service.request('GET', `/api/v1/spam/numbers/${id}/history`, { key: org.key }));
    expect(history.results.find((r) => r.carrier === 't-mobile')).toMatchObject({ status: 'failed', sip_response_code: '480', spam_detected: null, caller_id_verified: null });
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot?carrier=t-mobile`, { key: org.key })).status).toBe(404);
  });

  it('delete stops monitoring, answers its body, and frees the number to be added again', async () => {
    const org = await newOrg('Deleter');
    const id = await addVerified(service, org.key, '+12023180123');
    await admin.runSpamTestsNow(service.runtime.ports, org.id);
    const del = await service.request('DELETE', `/api/v1/spam/numbers/${id}`, { key: org.key });
    expect(del.status).toBe(200);
    expect(await json(del)).toEqual({ success: true, number_id: id, phone_number: '+12023180123', message: expect.any(String) });
    for (const path of ['', '/history', '/screenshot']) expect((await service.request('GET', `/api/v1/spam/numbers/${id}${path}`, { key: org.key })).status).toBe(404);
    expect((await service.request('DELETE', `/api/v1/spam/numbers/${id}`, { key: org.key })).status).toBe(404);
    expect((await admin.runSpamTestsNow(service.runtime.ports, org.id)).numbers_tested).toBe(0);
    expect((await service.request('POST', '/api/v1/spam/numbers', { body: { phone_number: '+12023180123' }, key: org.key })).status).toBe(201);
  });
});
