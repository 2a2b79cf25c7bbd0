import { afterEach, describe, expect, it } from 'vitest';
import * as admin from '../../../lambdas/admin/admin';
import { SimulatedTelephony } from '../../../lambdas/spam/telephony/simulator';
import { TelephonyError, type TelephonyPort } from '../../../lambdas/spam/telephony/port';
import { useTestService } from '../../support/runtime';
import { addVerified, json, newOrg } from './helpers';

const failingTelephony: TelephonyPort = {
  name: 'failing',
  sendCode: async () => {
    throw new TelephonyError('carrier network unreachable');
  },
};

// This file's runtime sends codes through `telephony`: the simulator, or the failing stand-in
// while a test says so.
const simulator = new SimulatedTelephony();
let telephony: TelephonyPort = simulator;
const service = useTestService({ ports: { telephony: { name: 'switchable', sendCode: (input) => telephony.sendCode(input) } } });
const setTelephony = (port: TelephonyPort | null) => {
  telephony = port ?? simulator;
};

afterEach(() => {
  setTelephony(null);
  service.clock.set(null);
});

const add = (key: string, body: unknown) => service.request('POST', '/api/v1/spam/numbers', { body, key });
const detail = async (response: Response) => (await json<{ detail: string }>(response)).detail;

describe('spam monitoring errors', () => {
  it('400 for unparseable, non-US/CA and hostile numbers, bad methods, and sms to a non-SMS-capable number', async () => {
    const org = await newOrg('Bad input');
    for (const phone_number of ['12345', '+44 20 7183 8750', 'not a number', '+1 202 318 0000 ext. 9'.repeat(10), '<script>alert(1)</script>', '']) {
      const response = await add(org.key, { phone_number });
      expect(response.status, phone_number).toBe(400);
      expect(typeof (await detail(response))).toBe('string');
    }
    expect((await add(org.key, { phone_number: 12023180300 })).status).toBe(400);
    expect((await add(org.key, { phone_number: '+12023180300', verification_method: 'fax' })).status).toBe(400);
    const typo = await add(org.key, { phone_number: '+12023180300', verification_metod: 'sms' });
    expect(typo.status).toBe(400);
    expect(await detail(typo)).toBe('Invalid request body: Unrecognized key: "verification_metod"');
    const tollFree = await add(org.key, { phone_number: '+1 800 275 2273', verification_method: 'sms' });
    expect(tollFree.status).toBe(400);
    expect(await detail(tollFree)).toMatch(/sms/);
    expect((await add(org.key, { phone_number: '+1 800 275 2273', verification_method: 'call' })).status).toBe(201);
    const malformed = await service.request('POST', '/api/v1/spam/numbers', { body: '{"phone_number":', headers: { 'content-type': 'application/json' }, key: org.key });
    expect(malformed.status).toBe(400);
  });

  it('403 without an active subscription on every endpoint', async () => {
    const org = await newOrg('No subscription');
    const id = await addVerified(service, org.key, '+12023180301');
    await admin.setSubscription(org.id, false);
    const calls: [string, string, unknown?][] = [
      ['POST', '/api/v1/spam/numbers', { phone_number: '+12023180302' }],
      ['GET', '/api/v1/spam/numbers'],
      ['GET', `/api/v1/spam/numbers/${id}`],
      ['POST', `/api/v1/spam/numbers/${id}/verify`, { code: '123456' }],
      ['POST', `/api/v1/spam/numbers/${id}/verify/resend`, {}],
      ['GET', `/api/v1/spam/numbers/${id}/history`],
      ['GET', `/api/v1/spam/numbers/${id}/screenshot`],
      ['DELETE', `/api/v1/spam/numbers/${id}`],
    ];
    for (const [method, path, body] of calls) {
      const response = await service.request(method, path, { body, key: org.key });
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await detail(response)).toMatch(/subscription/i);
    }
  });

  it('403 at the limit (included + add-ons), 409 for a number already monitored in the organization', async () => {
    const org = await newOrg('Limited', { included: 1, addons: 1 });
    expect((await add(org.key, { phone_number: '+12023180311' })).status).toBe(201);
    const duplicate = await add(org.key, { phone_number: '(202) 318-0311' });
    expect(duplicate.status).toBe(409);
    expect((await add(org.key, { phone_number: '+12023180312' })).status).toBe(201);
    const over = await add(org.key, { phone_number: '+12023180313' });
    expect(over.status).toBe(403);
    expect(await detail(over)).toMatch(/limit/i);
    // Parallel adds cannot overshoot the limit.
    await admin.setSpamLimit(org.id, 1, 3);
    const parallel = await Promise.all(['+12023180321', '+12023180322', '+12023180323', '+12023180324'].map((p) => add(org.key, { phone_number: p })));
    expect(parallel.map((r) => r.status).sort()).toEqual([201, 201, 403, 403]);
    // The same number in another organization is fine.
    const other = await newOrg('Other');
    expect((await add(other.key, { phone_number: '+12023180311' })).status).toBe(201);
  });

  it('wrong codes guessed in parallel: each told what is left of the bound after its own guess', async () => {
    const org = await newOrg('Parallel guesser');
    const created = await json<{ number: { id: string } }>(await add(org.key, { phone_number: '+12023180332' }));
    const [sent] = await admin.spamVerificationCodes('+12023180332');
    const wrong = sent!.code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(Array.from({ length: 8 }, () => service.request('POST', `/api/v1/spam/numbers/${created.number.id}/verify`, { body: { code: wrong }, key: org.key })));
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 400));
    const details = (await Promise.all(answers.map(detail))).sort();
    expect(details.filter((d) => /attempts? left/.test(d))).toEqual(['Invalid verification code; 1 attempt left', 'Invalid verification code; 2 attempts left', 'Invalid verification code; 3 attempts left', 'Invalid verification code; 4 attempts left']);
    expect(details.filter((d) => d === 'Invalid verification code; request a new code with verify/resend')).toHaveLength(1);
  });

  it('wrong code 400, bounded attempts, expiry, already verified 400', async () => {
    const org = await newOrg('Guesser');
    const created = await json<{ number: { id: string } }>(await add(org.key, { phone_number: '+12023180331' }));
    const id = created.number.id;
    const [sent] = await admin.spamVerificationCodes('+12023180331');
    const wrong = sent!.code === '000000' ? '111111' : '000000';
    const verify = (code: unknown) => service.request('POST', `/api/v1/spam/numbers/${id}/verify`, { body: { code }, key: org.key });
    const first = await verify(wrong);
    expect(first.status).toBe(400);
    expect(await detail(first)).toMatch(/Invalid verification code; 4 attempt/);
    expect((await verify('')).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await verify(wrong)).status).toBe(400);
    // Five guesses used: even the right code is refused until a new one is requested.
    const locked = await verify(sent!.code);
    expect(locked.status).toBe(400);
    expect(await detail(locked)).toMatch(/request a new code/);

    service.clock.set(() => Date.now() + 31_000);
    expect((await service.request('POST', `/api/v1/spam/numbers/${id}/verify/resend`, { body: { method: 'call' }, key: org.key })).status).toBe(200);
    const [fresh] = await admin.spamVerificationCodes('+12023180331');
    expect(fresh!.id).not.toBe(sent!.id);
    expect((await verify(sent!.code === fresh!.code ? wrong : sent!.code)).status).toBe(400); // the old code is void

    service.clock.set(() => Date.now() + 31_000 + 11 * 60_000);
    const expired = await verify(fresh!.code);
    expect(expired.status).toBe(400);
    expect(await detail(expired)).toMatch(/expired/);

    service.clock.set(() => Date.now() + 31_000 + 12 * 60_000);
    expect((await service.request('POST', `/api/v1/spam/numbers/${id}/verify/resend`, { key: org.key })).status).toBe(200);
    const [third] = await admin.spamVerificationCodes('+12023180331');
    expect((await verify(` ${third!.code} `)).status).toBe(200);
    const again = await verify(third!.code);
    expect(again.status).toBe(400);
    expect(await detail(again)).toMatch(/already verified/);
    expect((await service.request('POST', `/api/v1/spam/numbers/${id}/verify/resend`, { key: org.key })).status).toBe(400);
  });

  it('a code that cannot be sent: 201 with sent=false on add, 502 on resend; then a working resend', async () => {
    const org = await newOrg('Unreachable');
    setTelephony(failingTelephony);
    const response = await add(org.key, { phone_number: '+12023180341' });
    expect(response.status).toBe(201);
    const body = await json<{ number: { id: string }; verification: { sent: boolean; error: string | null; instructions: string } }>(response);
    expect(body.verification).toMatchObject({ sent: false, error: expect.stringMatching(/could not be sent/) });
    // The instructions say what to do now, not that a call is on its way.
    expect(body.verification.instructions).toMatch(/^The call with the code to \+12023180341 could not be made\. Request a new code with POST \/api\/v1\/spam\/numbers\/[0-9a-f-]+\/verify\/resend/);
    expect(body.verification.instructions).not.toMatch(/We are calling/);
    // No code reached anyone, so a guess is refused without using up an attempt.
    const guess = await service.request('POST', `/api/v1/spam/numbers/${body.number.id}/verify`, { body: { code: '123456' }, key: org.key });
    expect(guess.status).toBe(400);
    expect(await detail(guess)).toBe('The last verification code could not be sent; request a new one with verify/resend');
    const resend = await service.request('POST', `/api/v1/spam/numbers/${body.number.id}/verify/resend`, { body: { method: 'call' }, key: org.key });
    expect(resend.status).toBe(502);
    expect(await detail(resend)).toMatch(/could not be sent/);
    // A failed send does not start the cooldown.
    setTelephony(null);
    const ok = await service.request('POST', `/api/v1/spam/numbers/${body.number.id}/verify/resend`, { body: { method: 'sms' }, key: org.key });
    expect(ok.status).toBe(200);
    expect(await json(ok)).toMatchObject({ success: true, phone_number: '+12023180341', method: 'sms' });

    // The simulator's reserved undeliverable suffix 0502 gives the same answers without a stub.
    const sim = await json<{ number: { id: string }; verification: { sent: boolean } }>(await add(org.key, { phone_number: '+12023180502' }));
    expect(sim.verification.sent).toBe(false);
    expect((await service.request('POST', `/api/v1/spam/numbers/${sim.number.id}/verify/resend`, { key: org.key })).status).toBe(502);
  });

  it('throttles resends with 429, Retry-After and the X-RateLimit-* headers of the throttle that refused', async () => {
    const org = await newOrg('Impatient');
    const start = Date.now();
    let now = start;
    service.clock.set(() => now);
    const { number } = await json<{ number: { id: string } }>(await add(org.key, { phone_number: '+12023180351' }));
    const resend = () => service.request('POST', `/api/v1/spam/numbers/${number.id}/verify/resend`, { key: org.key });

    // The 30-second cooldown after the code sent on add: one send per 30 s.
    now = start + 10_000;
    const cooling = await resend();
    expect(cooling.status).toBe(429);
    expect(cooling.headers.get('retry-after')).toBe('20');
    expect(cooling.headers.get('x-ratelimit-limit')).toBe('1');
    expect(cooling.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(cooling.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((start + 30_000) / 1000)));
    expect(await detail(cooling)).toBe('A code was sent recently; wait 20 seconds before requesting another');

    // The daily cap: ten sends in 24 hours (the add's and nine resends), then a wait for the oldest to age out.
    for (let i = 1; i <= 9; i++) {
      now = start + i * 31_000;
      expect((await resend()).status, `resend ${i}`).toBe(200);
    }
    now = start + 10 * 31_000;
    const capped = await resend();
    expect(capped.status).toBe(429);
    const wait = Math.ceil((start + 86_400_000 - now) / 1000);
    expect(capped.headers.get('retry-after')).toBe(String(wait));
    expect(capped.headers.get('x-ratelimit-limit')).toBe('10');
    expect(capped.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(capped.headers.get('x-ratelimit-reset')).toBe(String(Math.ceil((start + 86_400_000) / 1000)));
    expect(await detail(capped)).toBe(`10 codes were sent in the last 24 hours; wait ${wait} seconds before requesting another`);
  });

  it('404 for unknown numbers and numbers of another organization; 400 for a malformed id, carrier or page', async () => {
    const owner = await newOrg('Owner');
    const stranger = await newOrg('Stranger');
    const id = await addVerified(service, owner.key, '+12023180361');
    for (const [method, path, body] of [
      ['GET', `/api/v1/spam/numbers/${id}`],
      ['GET', `/api/v1/spam/numbers/${id}/history`],
      ['GET', `/api/v1/spam/numbers/${id}/screenshot`],
      ['POST', `/api/v1/spam/numbers/${id}/verify`, { code: '123456' }],
      ['POST', `/api/v1/spam/numbers/${id}/verify/resend`, {}],
      ['DELETE', `/api/v1/spam/numbers/${id}`],
      ['GET', '/api/v1/spam/numbers/00000000-0000-4000-8000-000000000000'],
    ] as [string, string, unknown?][]) {
      expect((await service.request(method, path, { body, key: stranger.key })).status, `${method} ${path}`).toBe(404);
    }
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}`, { key: owner.key })).status).toBe(200);
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot`, { key: owner.key })).status).toBe(404); // not run yet
    expect((await service.request('GET', '/api/v1/spam/numbers/not-a-uuid', { key: owner.key })).status).toBe(404);
    expect((await service.request('GET', `/api/v1/spam/numbers/${id}/screenshot?carrier=sprint`, { key: owner.key })).status).toBe(400);
    // Decimal digits only: what Number() also reads (empty, blank, hex, binary, octal, exponent) is refused.
    for (const query of ['limit=0', 'limit=501', 'offset=-1', 'limit=abc', 'limit=', 'offset=', 'offset=%20', 'limit=0x2', 'limit=0b11', 'offset=0o7', 'offset=1e3', 'limit=%2B5', 'limit=5.0']) {
      expect((await service.request('GET', `/api/v1/spam/numbers?${query}`, { key: owner.key })).status, query).toBe(400);
    }
    // A whole number past what JSON numbers keep exactly is refused, and the message says where the bound is.
    const huge = await service.request('GET', '/api/v1/spam/numbers?offset=9007199254740993', { key: owner.key });
    expect([huge.status, await detail(huge)]).toEqual([400, expect.stringContaining('must be a whole number from 0 to 9007199254740991')]);
    expect((await service.request('GET', '/api/v1/spam/numbers', { key: null })).status).toBe(401);
  });

  it('pages with limit and offset', async () => {
    const org = await newOrg('Pager', { included: 10 });
    const phones = ['+12023180371', '+12023180372', '+12023180373', '+12023180374'];
    for (const phone_number of phones) expect((await add(org.key, { phone_number })).status).toBe(201);
    const page = await json<{ numbers: { phone_number: string }[]; total: number }>(
      await service.request('GET', '/api/v1/spam/numbers?limit=2&offset=1', { key: org.key }),
    );
    expect(page.numbers.map((n) => n.phone_number)).toEqual(phones.slice(1, 3));
    expect(page.total).toBe(4);
    const past = await json<{ numbers: unknown[] }>(await service.request('GET', '/api/v1/spam/numbers?offset=10', { key: org.key }));
    expect(past.numbers).toEqual([]);
  });
});
