import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { classifyBatch, createProviderFromEnv } from '../../../lambdas/classification';
import { createTelnyxProvider } from '../../../lambdas/classification/telnyx-provider';
import { parseConfig } from '../../../lambdas/platform/config';

// A local stand-in for Telnyx Number Lookup that speaks its documented API
// (GET /v2/number_lookup/{+E.164}?type=carrier&type=caller-name, Authorization: Bearer, the
// {"data": …} answer, {"errors": [{code, title, detail}]} errors, 429 with x-ratelimit-* headers).

interface Seen {
  at: number;
  method: string;
  path: string;
  search: string;
  types: string[];
  auth: string | undefined;
  accept: string | undefined;
}
const KEY = 'KEY0123456789ABCDEF_test';
let server: Server;
let base = '';
const seen: Seen[] = [];
/** e164 → answers to give before the normal one: a status, with headers. */
const scripted = new Map<string, { status: number; headers?: Record<string, string> }[]>();
const held: ServerResponse[] = [];

const errors = (code: string, title: string, detail: string) => JSON.stringify({ errors: [{ code, title, detail }] });

interface Line {
  type: string;
  carrier: string;
  ported: 'Y' | 'N' | '';
  cnam: string | null;
}
const LINES: Record<string, Line> = {
  '+14155550101': { type: 'mobile', carrier: 'T-MOBILE USA, INC.', ported: 'Y', cnam: 'LOVELACE ADA' },
  '+14155550102': { type: 'fixed line', carrier: 'PACIFIC BELL', ported: 'N', cnam: 'GRACE HOPPER' },
  '+14155550103': { type: 'voip', carrier: 'Telnyx/4', ported: '', cnam: null },
  '+14155550104': { type: 'fixed line or mobile', carrier: 'LEVEL 3', ported: 'N', cnam: null },
  '+14155550105': { type: 'constructor', carrier: '', ported: 'N', cnam: null },
  '+18005550106': { type: 'toll free', carrier: 'AT&T', ported: 'N', cnam: null },
};

function answer(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://fake');
  seen.push({ at: Date.now(), method: req.method ?? '', path: url.pathname, search: url.search, types: url.searchParams.getAll('type'), auth: req.headers.authorization, accept: req.headers.accept });
  const json = (status: number, body: string, headers: Record<string, string> = {}) => void res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(body);
  if (req.headers.authorization !== `Bearer ${KEY}`) return json(401, errors('10009', 'Authentication failed', 'The required authentication headers were either invalid or not included in the request.'));
  const m = /^\/v2\/number_lookup\/(.+)$/.exec(url.pathname);
  if (req.method !== 'GET' || !m) return json(404, errors('10005', 'Resource not found', 'The requested resource or URL could not be found.'));
  const types = url.searchParams.getAll('type');
  if (types.some((t) => t !== 'carrier' && t !== 'caller-name') || [...url.searchParams.keys()].some((k) => k !== 'type')) return json(400, errors('10015', 'Bad Request', 'The request failed because it was not well-formed.'));
  const e164 = decodeURIComponent(m[1]!);
  const script = scripted.get(e164);
  const next = script?.shift();
  if (next?.status === 0) return void held.push(res); // never answers: the client's timeout decides
  if (next?.status === 403) return json(403, errors('10010', 'Authorization failed', 'You do not have permission to perform the requested action on the specified resource or resources.'));
  if (next?.status === 429) return json(429, errors('10011', 'Too many requests', 'You have exceeded the maximum number of allowed requests.'), { 'x-ratelimit-limit': '10', 'x-ratelimit-remaining': '0', ...next.headers });
  if (next?.status === 200) return json(200, 'null');
  if (next) return json(next.status, errors('10007', 'Unexpected error', 'An unexpected error occured.'), next.headers);
  if (e164 === '+19999999999') return json(422, errors('10002', 'Invalid phone number', 'The phone number is invalid.'));
  const line = LINES[e164];
  if (!line) return json(404, errors('10005', 'Resource not found', 'The requested resource or URL could not be found.'));
  json(
    200,
    JSON.stringify({
      data: {
        record_type: 'number_lookup',
        country_code: 'US',
        national_format: '(415) 555-0101',
        phone_number: e164,
        valid_number: true,
        fraud: null,
        carrier: types.includes('carrier') ? { name: line.carrier, normalized_carrier: null, type: line.type, mobile_country_code: '310', mobile_network_code: '260', error_code: null } : null,
        caller_name: types.includes('caller-name') ? { caller_name: line.cnam, error_code: line.cnam ? null : '10001' } : null,
        portability: { lrn: '4155550000', ported_status: line.ported, ported_date: line.ported === 'Y' ? '2019-03-01' : '', ocn: '6529', line_type: line.type, spid: '6529', spid_carrier_name: line.carrier, spid_carrier_type: '1', altspid: '', altspid_carrier_name: '', altspid_carrier_type: '', city: 'SAN FRANCISCO', state: 'CA' },
      },
    }),
  );
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

const provider = (over: Partial<Parameters<typeof createTelnyxProvider>[0]> = {}) =>
  createTelnyxProvider({ apiKey: KEY, baseUrl: base, concurrency: 3, requestsPerSecond: 1000, timeoutMs: 2000, attempts: 3, ...over });
const standard = { tier: 'standard', skipMobileLookup: false } as const;

describe('Telnyx Number Lookup adapter against a local fake of its API', () => {
  it('sends exactly the documented request: GET /v2/number_lookup/+E.164, type=carrier (and caller-name with a name), Bearer key', async () => {
    await provider().lookup([{ e164: '+14155550101', name: { full: 'Ada Lovelace' } }, { e164: '+14155550102' }], standard);
    const byPath = new Map(seen.map((s) => [s.path, s]));
    expect(byPath.get('/v2/number_lookup/+14155550101')).toMatchObject({ method: 'GET', search: '?type=carrier&type=caller-name', auth: `Bearer ${KEY}`, accept: 'application/json' });
    expect(byPath.get('/v2/number_lookup/+14155550102')).toMatchObject({ method: 'GET', search: '?type=carrier', auth: `Bearer ${KEY}` });
    expect(seen).toHaveLength(2);
  });

  it('maps carrier type, carrier, portability and caller name into signals and the rule table', async () => {
    const items = [{ e164: '+14155550101', name: { full: 'Ada Lovelace' } }, { e164: '+14155550102', name: { first: 'Ada', last: 'Lovelace' } }, { e164: '+14155550103' }, { e164: '+14155550104' }, { e164: '+18005550106' }];
    const signals = await provider().lookup(items, standard);
    expect(signals[0]).toMatchObject({ lineType: 'mobile', carrier: 'T-MOBILE USA, INC.', ported: true, callerName: 'LOVELACE ADA', activityScore: null, nameMatch: null, simulated: false });
    expect(signals[1]).toMatchObject({ lineType: 'landline', ported: false, callerName: 'GRACE HOPPER' });
    expect(signals[2]).toMatchObject({ lineType: 'voip', ported: null, callerName: null });
    expect(signals[3]).toMatchObject({ lineType: 'unknown', carrier: 'LEVEL 3' });
    expect(signals[4]).toMatchObject({ lineType: 'tollFree' });
    const results = await classifyBatch(provider(), items, standard);
    expect(results.map((r) => [r.answerIntent, r.identity])).toEqual([
      ['Likely Answer', 'Very High'], // CNAM "LOVELACE ADA": the caller name feeds identity
      ['Non-Mobile', 'Low'], // CNAM "GRACE HOPPER" for Ada Lovelace
      ['Unknown', null], // VoIP of unspecified kind
      ['Unknown', null],
      ['Non-Mobile', null],
    ]);
    expect(results[1]!.status).toBe('8 - Likely Wrong Number');
  });

  it('skip_mobile_lookup asks only for the caller name when a name is given, and nothing otherwise', async () => {
    const skip = { tier: 'standard', skipMobileLookup: true } as const;
    const [named, bare] = await provider().lookup([{ e164: '+14155550101', name: { full: 'Ada Lovelace' } }, { e164: '+14155550102' }], skip);
    expect(seen.map((s) => s.search)).toEqual(['?type=caller-name']);
    expect(named).toMatchObject({ lineType: 'unknown', carrier: null, callerName: 'LOVELACE ADA', ported: true });
    expect(bare).toMatchObject({ lineType: 'unknown', carrier: null });
    expect(bare!.lookupError).toBeUndefined();
  });

  it('asks no caller name (it costs extra) for half a name or an empty one', async () => {
    await provider().lookup([{ e164: '+14155550101', name: { first: 'Ada' } }, { e164: '+14155550102', name: { full: '' } }], standard);
    expect(seen.map((s) => s.search)).toEqual(['?type=carrier', '?type=carrier']);
  });

  it('an invalid number (422, code 10002) and an unknown one (404) are no signal, not failures', async () => {
    const [invalid, unknown] = await provider().lookup([{ e164: '+19999999999' }, { e164: '+14155550199' }], standard);
    for (const s of [invalid, unknown]) {
      expect(s).toMatchObject({ lineType: 'unknown', carrier: null, callerName: null, ported: null });
      expect(s!.lookupError).toBeUndefined();
    }
    expect(seen).toHaveLength(2); // neither retried
  });

  it('retries 429 and 5xx, honouring Retry-After', async () => {
    scripted.set('+14155550101', [{ status: 429, headers: { 'retry-after': '1', 'x-ratelimit-reset': '1' } }, { status: 503 }]);
    const [s] = await provider().lookup([{ e164: '+14155550101' }], standard);
    expect(s).toMatchObject({ lineType: 'mobile' });
    expect(seen).toHaveLength(3);
    expect(seen[1]!.at - seen[0]!.at).toBeGreaterThanOrEqual(950); // waited the second Retry-After asked for
  });

  it("a number still failing after its attempts is Unknown with the reason; its batch goes on", async () => {
    scripted.set('+14155550101', [{ status: 500 }, { status: 502 }, { status: 500 }]);
    scripted.set('+14155550102', [{ status: 0 }, { status: 0 }]);
    const results = await classifyBatch(provider({ timeoutMs: 300, attempts: 3 }), [{ e164: '+14155550101' }, { e164: '+14155550102' }, { e164: '+14155550104' }], standard);
    expect(results[0]).toMatchObject({ answerIntent: 'Unknown', lookupError: 'Telnyx Number Lookup answered 500' });
    expect(results[1]).toMatchObject({ answerIntent: 'Non-Mobile' }); // two timeouts, then an answer
    expect(results[1]!.lookupError).toBeUndefined();
    expect(results[2]!.lookupError).toBeUndefined();
    scripted.set('+14155550102', [{ status: 0 }, { status: 0 }]);
    const [timedOut] = await provider({ timeoutMs: 300, attempts: 2 }).lookup([{ e164: '+14155550102' }], standard);
    expect(timedOut!.lookupError).toMatch(/^Telnyx Number Lookup unreachable: .*(timeout|aborted)/i);
  });

  it('a 429 still there after every attempt is that number\'s failure, reported as such', async () => {
    scripted.set('+14155550101', [{ status: 429 }, { status: 429 }]);
    const [s] = await provider({ attempts: 2 }).lookup([{ e164: '+14155550101' }], standard);
    expect(s!.lookupError).toBe('Telnyx Number Lookup answered 429');
  });

  it('bad credentials (401) or a key without Number Lookup (403) stop the batch at once with what to check', async () => {
    await expect(provider({ apiKey: 'wrong' }).lookup([{ e164: '+14155550101' }], standard)).rejects.toThrow(/401: check TELNYX_API_KEY.*10009/);
    expect(seen).toHaveLength(1);
    scripted.set('+14155550101', [{ status: 403 }]);
    await expect(provider().lookup([{ e164: '+14155550101' }], standard)).rejects.toThrow(/403: check TELNYX_API_KEY.*Number Lookup is enabled/);
  });

  it('hostile answers: an unknown carrier type is unknown, a body that is no object is a failure', async () => {
    const [odd] = await provider().lookup([{ e164: '+14155550105' }], standard);
    expect(odd).toMatchObject({ lineType: 'unknown', carrier: null });
    scripted.set('+14155550101', [{ status: 200 }]);
    const [nothing] = await provider().lookup([{ e164: '+14155550101' }], standard);
    expect(nothing!.lookupError).toMatch(/answered 200 with no JSON object/);
  });

  it('takes an injected fetch', async () => {
    const calls: string[] = [];
    const fetchSpy: typeof fetch = (input, init) => {
      calls.push(String(input));
      return fetch(input, init);
    };
    await provider({ fetch: fetchSpy }).lookup([{ e164: '+14155550102' }], standard);
    expect(calls).toEqual([`${base}/v2/number_lookup/+14155550102?type=carrier`]);
  });
});

describe('selected by configuration', () => {
  it('CLASSIFICATION_PROVIDER=telnyx with its settings, behind CLASSIFICATION_CHAIN=offline-ranges,paid: a toll-free number never reaches it', async () => {
    const settings = parseConfig({ CLASSIFICATION_PROVIDER: 'telnyx', TELNYX_API_KEY: KEY, TELNYX_LOOKUP_BASE_URL: base, TELNYX_ATTEMPTS: '2', CLASSIFICATION_CHAIN: 'offline-ranges,paid' });
    const provider = await createProviderFromEnv(settings);
    expect(provider.name).toBe('telnyx');
    const results = await classifyBatch(provider, [{ e164: '+18005550106' }, { e164: '+14155550101' }], standard);
    expect(results.map((r) => r.answerIntent)).toEqual(['Non-Mobile', 'Likely Answer']);
    expect(seen.map((s) => s.path)).toEqual(['/v2/number_lookup/+14155550101']);
  });

  it('reads the API key from the Secrets Manager secret in AWS, and says what to set without one', async () => {
    const sm = mockClient(SecretsManagerClient);
    sm.on(GetSecretValueCommand, { SecretId: 'arn:telnyx' }).resolves({ SecretString: JSON.stringify({ api_key: KEY }) });
    try {
      const provider = await createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'telnyx', TELNYX_SECRET_ARN: 'arn:telnyx', TELNYX_LOOKUP_BASE_URL: base }));
      const [s] = await provider.lookup([{ e164: '+14155550102' }], standard);
      expect(s).toMatchObject({ lineType: 'landline' });
      sm.on(GetSecretValueCommand, { SecretId: 'arn:placeholder' }).resolves({ SecretString: JSON.stringify({ api_key: '' }) });
      await expect(createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'telnyx', TELNYX_SECRET_ARN: 'arn:placeholder' }))).rejects.toThrow(/arn:placeholder has no "api_key"/);
      await expect(createProviderFromEnv(parseConfig({ CLASSIFICATION_PROVIDER: 'telnyx' }))).rejects.toThrow(/set TELNYX_API_KEY, or TELNYX_SECRET_ARN/);
    } finally {
      sm.restore();
    }
  });
});
