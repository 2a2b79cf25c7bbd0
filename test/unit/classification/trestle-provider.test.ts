import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { classifyBatch, createProviderFromEnv } from '../../../lambdas/classification';
import { createTrestleProvider } from '../../../lambdas/classification/trestle-provider';
import { parseConfig } from '../../../lambdas/platform/config';

// A local stand-in for Trestle that speaks its documented API: GET /3.0/phone_intel?phone=… and
// GET /1.1/real_contact?name=…&phone=…, header x-api-key, {"errorCode", "message", "hint"} errors
// (403 INVALID_API_KEY / FORBIDDEN, 429 RATE_LIMIT_EXCEEDED / QUOTA_EXCEEDED, 400, 500).

interface Seen {
  at: number;
  method: string;
  path: string;
  params: Record<string, string>;
  key: string | undefined;
  accept: string | undefined;
}
const KEY = 'trestle-test-key';
let server: Server;
let base = '';
const seen: Seen[] = [];
/** Answers to give, by 10-digit phone, before the normal one. */
const scripted = new Map<string, { status: number; code?: string; headers?: Record<string, string>; body?: string }[]>();
const held: ServerResponse[] = [];

interface Line {
  line_type: string | null;
  carrier: string | null;
  activity_score: unknown;
  owner: string | null;
}
const LINES: Record<string, Line> = {
  '4155550101': { line_type: 'Mobile', carrier: 'T-Mobile USA, Inc.', activity_score: 92, owner: 'ada lovelace' },
  '4155550102': { line_type: 'Mobile', carrier: 'Verizon Wireless', activity_score: 18, owner: 'grace hopper' },
  '4155550103': { line_type: 'NonFixedVOIP', carrier: 'Google (Grand Central) BWI - Bandwidth.com - SVR', activity_score: 50, owner: null },
  '4155550104': { line_type: 'Landline', carrier: 'Pacific Bell', activity_score: 5, owner: null },
  '4155550105': { line_type: 'FixedVOIP', carrier: 'Level 3 Communications, LLC', activity_score: 70, owner: null },
  '4155550106': { line_type: 'Other', carrier: null, activity_score: '90', owner: null }, // hostile: a score that is no number
  '4155550107': { line_type: '__proto__', carrier: null, activity_score: 250, owner: null }, // hostile: out of range
  '4155550108': { line_type: 'Voicemail', carrier: 'Vonage', activity_score: 40, owner: null },
};

const ERRORS: Record<string, [number, string, string]> = {
  INVALID_API_KEY: [403, 'The API key provided is invalid or has been revoked.', 'Verify your x-api-key header value or contact support.'],
  FORBIDDEN: [403, 'Access denied. Your API key may be disabled, expired, or not authorized for this product.', 'Contact support with your API key reference.'],
  MISSING_API_KEY: [403, 'Missing Authentication Token', 'Check the endpoint URL and API version against the API reference.'],
  RATE_LIMIT_EXCEEDED: [429, 'You are sending requests too quickly.', 'Implement exponential backoff and retry.'],
  QUOTA_EXCEEDED: [429, 'Your API quota for this billing period has been exhausted.', 'Upgrade your plan or wait for the next billing cycle.'],
  BAD_REQUEST: [400, 'Invalid phone number format.', 'Check the required parameters.'],
};

function answer(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://fake');
  const params = Object.fromEntries(url.searchParams);
  seen.push({ at: Date.now(), method: req.method ?? '', path: url.pathname, params, key: req.headers['x-api-key'] as string | undefined, accept: req.headers.accept });
  const json = (status: number, body: unknown, headers: Record<string, string> = {}) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
  const fail = (code: string, headers?: Record<string, string>) => {
    const [status, message, hint] = ERRORS[code]!;
    json(status, { errorCode: code, message, hint }, headers);
  };
  if (req.headers['x-api-key'] !== KEY) return fail('INVALID_API_KEY');
  const intel = url.pathname === '/3.0/phone_intel';
  const contact = url.pathname === '/1.1/real_contact';
  if (req.method !== 'GET' || !(intel || contact)) return fail('MISSING_API_KEY');
  const allowed = intel ? ['phone', 'phone.country_hint', 'add_ons', 'source_id'] : ['name', 'phone', 'email', 'add_ons', 'business.name', 'ip_address', 'source_id'];
  const phone = params.phone ?? '';
  if (!phone || (contact && !params.name) || Object.keys(params).some((k) => !allowed.includes(k)) || !/^\d{10}$/.test(phone)) return fail('BAD_REQUEST');
  const next = scripted.get(phone)?.shift();
  if (next?.status === 0) return void held.push(res); // never answers: the client's timeout decides
  if (next?.code) return fail(next.code, next.headers);
  if (next?.body) return json(next.status, next.body);
  if (next) return json(next.status, { error: 'InternalServerError', message: 'An unexpected error occurred.' }, next.headers);
  const line = LINES[phone];
  if (intel) {
    if (!line) return json(200, { id: null, phone_number: phone, is_valid: false, activity_score: null, country_calling_code: null, country_code: null, country_name: null, line_type: null, carrier: null, is_prepaid: null, add_ons: null, error: null, warnings: ['Invalid Phone'] });
    return json(200, { id: 'Phone.3dbb6fef-a2df-4b08-cfe3-bc7128b6f5b4', phone_number: phone, is_valid: true, activity_score: line.activity_score, country_calling_code: '1', country_code: 'US', country_name: 'United States', line_type: line.line_type, carrier: line.carrier, is_prepaid: false, add_ons: null, error: null, warnings: [] });
  }
  if (!line) return json(200, { 'phone.is_valid': false, 'phone.activity_score': null, 'phone.line_type': null, 'phone.name_match': null, 'phone.contact_grade': 'F', warnings: ['Invalid Phone', 'Missing Input'] });
  const nameMatch = line.owner === null ? null : line.owner === params.name!.toLowerCase();
  json(200, { 'phone.is_valid': true, 'phone.activity_score': line.activity_score, 'phone.line_type': line.line_type, 'phone.name_match': nameMatch, 'phone.contact_grade': 'A', 'email.is_valid': null, 'email.name_match': null, 'email.contact_grade': null, 'address.is_valid': null, 'address.name_match': null, add_ons: null, warnings: ['Missing Input'] });
}

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of held) res.destroy();
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
});
beforeEach(() => {
  seen.length = 0;
  scripted.clear();
});

const provider = (over: Partial<Parameters<typeof createTrestleProvider>[0]> = {}) =>
  createTrestleProvider({ apiKey: KEY, baseUrl: base, concurrency: 3, requestsPerSecond: 1000, timeoutMs: 2000, attempts: 3, ...over });
const standard = { tier: 'standard', skipMobileLookup: false } as const;

describe('Trestle adapter against a local fake of its API', () => {
  it('sends exactly the documented requests: Phone Intel without a name, Real Contact with one, x-api-key, 10-digit phone', async () => {
    await provider().lookup([{ e164: '+14155550101' }, { e164: '+14155550102', name: { first: 'Grace', last: 'Hopper' } }, { e164: '+14155550103', name: { full: 'Ada Lovelace' } }], standard);
    const byPhone = new Map(seen.map((s) => [s.params.phone, s]));
    expect(seen).toHaveLength(3);
    expect(byPhone.get('4155550101')).toEqual({ at: expect.any(Number), method: 'GET', path: '/3.0/phone_intel', params: { phone: '4155550101' }, key: KEY, accept: 'application/json' });
    expect(byPhone.get('4155550102')).toMatchObject({ method: 'GET', path: '/1.1/real_contact', params: { name: 'Grace Hopper', phone: '4155550102' }, key: KEY });
    expect(byPhone.get('4155550103')).toMatchObject({ path: '/1.1/real_contact', params: { name: 'Ada Lovelace', phone: '4155550103' } });
  });

  it('maps line type, carrier and activity score (Phone Intel) and the name match (Real Contact) into signals', async () => {
    const signals = await provider().lookup(
      [{ e164: '+14155550101' }, { e164: '+14155550104' }, { e164: '+14155550105' }, { e164: '+14155550108' }, { e164: '+14155550101', name: { full: 'Ada Lovelace' } }, { e164: '+14155550102', name: { full: 'Ada Lovelace' } }, { e164: '+14155550103', name: { full: 'Ada Lovelace' } }],
      standard,
    );
    expect(signals[0]).toMatchObject({ lineType: 'mobile', carrier: 'T-Mobile USA, Inc.', activityScore: 92, nameMatch: null, ported: null, simulated: false });
    expect(signals[1]).toMatchObject({ lineType: 'landline', activityScore: 5 });
    expect(signals[2]).toMatchObject({ lineType: 'fixedVoip', activityScore: 70 });
    expect(signals[3]).toMatchObject({ lineType: 'landline', carrier: 'Vonage' }); // Voicemail: not a mobile
    expect(signals[4]).toMatchObject({ lineType: 'mobile', activityScore: 92, nameMatch: true, carrier: null });
    expect(signals[5]).toMatchObject({ lineType: 'mobile', activityScore: 18, nameMatch: false });
    expect(signals[6]).toMatchObject({ lineType: 'nonFixedVoip', activityScore: 50, nameMatch: null });
  });

  it('feeds the rule table: a quiet mobile is not Likely Answer; the name match feeds identity', async () => {
    const results = await classifyBatch(
      provider(),
      [{ e164: '+14155550101', name: { full: 'Ada Lovelace' } }, { e164: '+14155550102' }, { e164: '+14155550102', name: { full: 'Grace Hopper' } }, { e164: '+14155550103', name: { full: 'Ada Lovelace' } }, { e164: '+14155550104' }],
      standard,
    );
    expect(results.map((r) => [r.answerIntent, r.identity, r.status])).toEqual([
      ['Likely Answer', 'High', '1 - Likely Right-Party Answer'],
      ['Unknown', null, 'Unknown'], // mobile, activity 18: disconnected or unanswered
      ['Unknown', 'High', 'Unknown'],
      ['Likely Call Screening', 'Unknown', '4 - Likely Call Screening'], // activity 50: not enough signals, no name data
      ['Non-Mobile', null, 'Non-Mobile'],
    ]);
  });

  it('half a name or an empty one goes to Phone Intel (no name to match)', async () => {
    await provider().lookup([{ e164: '+14155550101', name: { last: 'Lovelace' } }, { e164: '+14155550102', name: { full: '' } }], standard);
    expect(seen.map((s) => s.path)).toEqual(['/3.0/phone_intel', '/3.0/phone_intel']);
  });

  it('reads Real Contact fields nested under "phone", as its OpenAPI file shows them', async () => {
    scripted.set('4155550101', [{ status: 200, body: JSON.stringify({ phone: { is_valid: true, activity_score: 12, line_type: 'Mobile', name_match: false, contact_grade: 'D' }, warnings: [] }) }]);
    const [s] = await provider().lookup([{ e164: '+14155550101', name: { full: 'Ada Lovelace' } }], standard);
    expect(s).toMatchObject({ lineType: 'mobile', activityScore: 12, nameMatch: false });
  });

  it('skip_mobile_lookup: no call without a name; with one, only the name match is used', async () => {
    const skip = { tier: 'standard', skipMobileLookup: true } as const;
    const [bare, named] = await provider().lookup([{ e164: '+14155550101' }, { e164: '+14155550102', name: { full: 'Grace Hopper' } }], skip);
    expect(seen.map((s) => s.path)).toEqual(['/1.1/real_contact']);
    expect(bare).toMatchObject({ lineType: 'unknown', activityScore: null, nameMatch: null });
    expect(named).toMatchObject({ lineType: 'unknown', activityScore: null, nameMatch: true });
  });

  it('an invalid number (is_valid false, "Invalid Phone") is no signal, not a failure', async () => {
    const [intel, contact] = await provider().lookup([{ e164: '+14155550199' }, { e164: '+14155550198', name: { full: 'Ada Lovelace' } }], standard);
    for (const s of [intel, contact]) {
      expect(s).toMatchObject({ lineType: 'unknown', activityScore: null, nameMatch: null });
      expect(s!.lookupError).toBeUndefined();
    }
  });

  it('hostile answers: a score that is no integer in 0–100 and an unknown line type are no signal', async () => {
    const [text, outOfRange] = await provider().lookup([{ e164: '+14155550106' }, { e164: '+14155550107' }], standard);
    expect(text).toMatchObject({ lineType: 'unknown', activityScore: null });
    expect(outOfRange).toMatchObject({ lineType: 'unknown', activityScore: null });
    scripted.set('4155550101', [{ status: 200, body: '[1,2]' }]);
    const [array] = await provider().lookup([{ e164: '+14155550101' }], standard);
    expect(array!.lookupError).toMatch(/Trestle answered 200 with no JSON object/);
  });

  it('retries RATE_LIMIT_EXCEEDED and 500, honouring Retry-After', async () => {
    scripted.set('4155550101', [{ status: 429, code: 'RATE_LIMIT_EXCEEDED', headers: { 'retry-after': '1' } }, { status: 500 }]);
    const [s] = await provider().lookup([{ e164: '+14155550101' }], standard);
    expect(s).toMatchObject({ lineType: 'mobile', activityScore: 92 });
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950);
  });

  it('a number still failing after its attempts (5xx, rate limit, timeouts) or refused (400) is Unknown with the reason', async () => {
    scripted.set('4155550101', [{ status: 500 }, { status: 500 }]);
    scripted.set('4155550102', [{ status: 429, code: 'RATE_LIMIT_EXCEEDED' }, { status: 429, code: 'RATE_LIMIT_EXCEEDED' }]);
    scripted.set('4155550103', [{ status: 0 }, { status: 0 }]);
    scripted.set('4155550104', [{ status: 400, code: 'BAD_REQUEST' }]);
    const results = await classifyBatch(provider({ attempts: 2, timeoutMs: 300 }), [{ e164: '+14155550101' }, { e164: '+14155550102' }, { e164: '+14155550103' }, { e164: '+14155550104' }, { e164: '+14155550105' }], standard);
    expect(results[0]).toMatchObject({ answerIntent: 'Unknown', lookupError: 'Trestle answered 500' });
    expect(results[1]).toMatchObject({ answerIntent: 'Unknown', lookupError: 'Trestle answered 429' });
    expect(results[2]!.lookupError).toMatch(/^Trestle unreachable: .*(timeout|aborted)/i);
    expect(results[3]!.lookupError).toMatch(/^Trestle answered 400: .*BAD_REQUEST/);
    expect(results[4]).toMatchObject({ answerIntent: 'Non-Mobile' });
    expect(results[4]!.lookupError).toBeUndefined();
    expect(seen.filter((s) => s.params.phone === '4155550104')).toHaveLength(1); // a 400 is not retried
  });

  it('a bad key (403), a key without the product (403) or a spent quota (429 QUOTA_EXCEEDED) stop the batch at once', async () => {
    await expect(provider({ apiKey: 'wrong' }).lookup([{ e164: '+14155550101' }], standard)).rejects.toThrow(/Trestle answered 403: check TRESTLE_API_KEY.*INVALID_API_KEY/);
    scripted.set('4155550101', [{ status: 403, code: 'FORBIDDEN' }]);
    await expect(provider().lookup([{ e164: '+14155550101' }], standard)).rejects.toThrow(/403.*FORBIDDEN/);
    seen.length = 0;
    scripted.set('4155550101', [{ status: 429, code: 'QUOTA_EXCEEDED' }]);
    await expect(provider().lookup([{ e164: '+14155550101' }], standard)).rejects.toThrow(/429: check TRESTLE_API_KEY.*quota is used up/);
    expect(seen).toHaveLength(1); // retrying cannot help
  });
});

describe('selected by configuration', () => {
  it('CLASSIFICATION_PROVIDER=trestle with its settings; behind offline-ranges a toll-free number never reaches it', async () => {
    const provider = await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_API_KEY: KEY, TRESTLE_BASE_URL: base, CLASSIFICATION_CHAIN: 'offline-ranges,paid' }));
    expect(provider.name).toBe('trestle');
    const results = await classifyBatch(provider, [{ e164: '+18885550100' }, { e164: '+14155550101' }], standard);
    expect(results.map((r) => r.answerIntent)).toEqual(['Non-Mobile', 'Likely Answer']);
    expect(seen.map((s) => s.params.phone)).toEqual(['4155550101']);
  });

  it("takes the root's fetch: every call goes through it", async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    const provider = await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_API_KEY: KEY, TRESTLE_BASE_URL: base, LOOKUP_CACHE: 'off' }), { fetch: fetchSpy });
    const [s] = await provider.lookup([{ e164: '+14155550104' }], standard);
    expect(s).toMatchObject({ lineType: 'landline' });
    expect(calls).toHaveLength(1);
    expect(calls[0]).toContain(`${base}/3.0/phone_intel?`);
    expect(seen.map((x) => x.params.phone)).toEqual(['4155550104']);
  });

  it('reads the API key from the Secrets Manager secret in AWS', async () => {
    const sm = mockClient(SecretsManagerClient);
    sm.on(GetSecretValueCommand, { SecretId: 'arn:trestle' }).resolves({ SecretString: JSON.stringify({ api_key: KEY }) });
    try {
      const provider = await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_SECRET_ARN: 'arn:trestle', TRESTLE_BASE_URL: base }));
      const [s] = await provider.lookup([{ e164: '+14155550104' }], standard);
      expect(s).toMatchObject({ lineType: 'landline' });
      sm.on(GetSecretValueCommand, { SecretId: 'arn:broken' }).resolves({ SecretString: 'not json' });
      await expect(createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle', TRESTLE_SECRET_ARN: 'arn:broken' }))).rejects.toThrow(/not JSON/);
      await expect(createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'trestle' }))).rejects.toThrow(/set TRESTLE_API_KEY, or TRESTLE_SECRET_ARN/);
    } finally {
      sm.restore();
    }
  });
});
