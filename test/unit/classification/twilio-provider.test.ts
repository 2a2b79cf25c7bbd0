import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { classifyBatch } from '../../../lambdas/classification';
import { createTwilioProvider, createTwilioProviderFromEnv } from '../../../lambdas/classification/twilio-provider';

/** A local stand-in for Twilio Lookup v2 that speaks its documented JSON and errors. */
interface Seen {
  path: string;
  fields: string | null;
  first: string | null;
  last: string | null;
  auth: string | undefined;
}
let server: Server;
let base = '';
const seen: Seen[] = [];
const failures = new Map<string, number[]>(); // e164 → statuses to answer before succeeding

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const e164 = decodeURIComponent(url.pathname.split('/').pop() ?? '');
    seen.push({ path: url.pathname, fields: url.searchParams.get('Fields'), first: url.searchParams.get('FirstName'), last: url.searchParams.get('LastName'), auth: req.headers.authorization });
    if (req.headers.authorization !== 'Basic ' + Buffer.from('AC123:secret').toString('base64')) {
      res.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20003, message: 'Authenticate', status: 401 }));
      return;
    }
    const queue = failures.get(e164);
    if (queue?.length) {
      const status = queue.shift()!;
      res.writeHead(status, { 'content-type': 'application/json', ...(status === 429 ? { 'retry-after': '0' } : {}) }).end(JSON.stringify({ code: status === 429 ? 20429 : 20500, status }));
      return;
    }
    if (e164 === '+19999999999') {
      res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ code: 20404, message: 'not found', status: 404 }));
      return;
    }
    const types: Record<string, string> = { '+14155550001': 'mobile', '+14155550002': 'landline', '+14155550003': 'nonFixedVoip' };
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        calling_country_code: '1',
        country_code: 'US',
        phone_number: e164,
        valid: true,
        line_type_intelligence: { type: types[e164] ?? 'mobile', carrier_name: 'Verizon Wireless', mobile_country_code: '311', mobile_network_code: '480', error_code: null },
        line_status: url.searchParams.get('Fields')?.includes('line_status') ? { status: e164.endsWith('4') ? 'unreachable' : 'active', error_code: null } : null,
        identity_match: url.searchParams.get('FirstName') ? { first_name_match: 'exact_match', last_name_match: 'high_partial_match', summary_score: 90, error_code: null } : null,
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const provider = () => createTwilioProvider({ accountSid: 'AC123', authToken: 'secret', baseUrl: base, concurrency: 3, requestsPerSecond: 1000, timeoutMs: 2000, attempts: 3 });

describe('Twilio Lookup v2 adapter against a local fake', () => {
  it('asks for the documented fields and maps line type, status and identity', async () => {
    seen.length = 0;
    const results = await classifyBatch(
      provider(),
      [{ e164: '+14155550001', name: { first: 'Ada', last: 'Lovelace' } }, { e164: '+14155550002' }, { e164: '+14155550003' }, { e164: '+14155550004' }],
      { tier: 'max', skipMobileLookup: false },
    );
    expect(results.map((r) => [r.answerIntent, r.identity])).toEqual([
      ['Likely Answer', 'Very High'],
      ['Non-Mobile', null],
      ['Likely Call Screening', null],
      ['Likely Voicemail', null],
    ]);
    expect(results.every((r) => !r.simulated)).toBe(true);
    const first = seen.find((s) => s.path.endsWith('%2B14155550001') || s.path.endsWith('+14155550001'))!;
    expect(first.fields).toBe('line_type_intelligence,line_status,identity_match');
    expect([first.first, first.last]).toEqual(['Ada', 'Lovelace']);
  });

  it('skip_mobile_lookup asks for no paid line type; standard asks for no line status', async () => {
    seen.length = 0;
    await classifyBatch(provider(), [{ e164: '+14155550001' }], { tier: 'standard', skipMobileLookup: false });
    expect(seen[0]!.fields).toBe('line_type_intelligence');
    seen.length = 0;
    const skipped = await classifyBatch(provider(), [{ e164: '+14155550001' }], { tier: 'standard', skipMobileLookup: true });
    expect(seen).toHaveLength(0);
    expect(skipped[0]!.answerIntent).toBe('Unknown');
  });

  it('retries 429 and 5xx, treats 404 as no signal, and makes a number still failing after its attempts Unknown with the reason', async () => {
    failures.set('+14155550011', [429, 503]);
    const ok = await classifyBatch(provider(), [{ e164: '+14155550011' }, { e164: '+19999999999' }], { tier: 'standard', skipMobileLookup: false });
    expect(ok.map((r) => r.answerIntent)).toEqual(['Likely Answer', 'Unknown']);
    failures.set('+14155550012', [500, 500, 500, 500]);
    const [failed, fine] = await classifyBatch(provider(), [{ e164: '+14155550012' }, { e164: '+14155550013' }], { tier: 'standard', skipMobileLookup: false });
    // One number's failure does not fail its batch (the upload decides on the failed share).
    expect(failed).toMatchObject({ answerIntent: 'Unknown', lookupError: 'Twilio Lookup answered 500' });
    expect(fine).toMatchObject({ answerIntent: 'Likely Answer' });
    expect(fine!.lookupError).toBeUndefined();
  });

  it('says what to check on bad credentials, without retrying', async () => {
    const bad = createTwilioProvider({ accountSid: 'AC123', authToken: 'wrong', baseUrl: base, concurrency: 1, requestsPerSecond: 1000, timeoutMs: 2000, attempts: 3 });
    seen.length = 0;
    await expect(classifyBatch(bad, [{ e164: '+14155550001' }], { tier: 'standard', skipMobileLookup: false })).rejects.toThrow(/401.*credentials/);
    expect(seen).toHaveLength(1);
  });

  it('takes an injected fetch', async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const spied = createTwilioProvider({ accountSid: 'AC123', authToken: 'secret', baseUrl: base, concurrency: 1, requestsPerSecond: 1000, timeoutMs: 2000, attempts: 1, fetch: fetchSpy });
    const [r] = await classifyBatch(spied, [{ e164: '+14155550002' }], { tier: 'standard', skipMobileLookup: false });
    expect(r!.answerIntent).toBe('Non-Mobile');
    expect(calls).toEqual([`${base}/v2/PhoneNumbers/%2B14155550002?Fields=line_type_intelligence`]);
  });

  it('reads credentials from Secrets Manager in AWS', async () => {
    const sm = mockClient(SecretsManagerClient);
    sm.on(GetSecretValueCommand, { SecretId: 'arn:twilio' }).resolves({ SecretString: JSON.stringify({ account_sid: 'AC123', auth_token: 'secret' }) });
    const fromSecret = await createTwilioProviderFromEnv({ TWILIO_SECRET_ARN: 'arn:twilio', TWILIO_LOOKUP_BASE_URL: base }, new SecretsManagerClient({ region: 'us-east-1' }));
    const [r] = await classifyBatch(fromSecret, [{ e164: '+14155550002' }], { tier: 'standard', skipMobileLookup: false });
    expect(r!.answerIntent).toBe('Non-Mobile');
    await expect(createTwilioProviderFromEnv({})).rejects.toThrow(/TWILIO_ACCOUNT_SID/);
    sm.restore();
  });
});
