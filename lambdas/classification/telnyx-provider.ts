import { mapConcurrent } from './resilience';
import { getJson, retryAfterMs, providerHttp, type PaidProviderSettings, type Verdict } from './provider-http';
import { noSignals, type LineType, type LookupItem, type LookupOptions, type Signals } from './signals';
import type { SignalProvider } from './provider';
import { hasName } from './identity';

// Telnyx Number Lookup, as its API reference documents it
// (https://developers.telnyx.com/api-reference/number-lookup/lookup-phone-number-data, the OpenAPI
// file behind it, and https://developers.telnyx.com/development/api-fundamentals/api-errors and
// .../reliability/rate-limiting):
//   GET {base}/v2/number_lookup/{+E.164}?type=carrier&type=caller-name
//   Authorization: Bearer <API key>
//   200 {"data": {"carrier": {"name", "normalized_carrier", "type"}, "caller_name": {"caller_name",
//       "error_code"}, "portability": {"ported_status": "Y" | "N" | "", …}, "valid_number", …}}
//   errors {"errors": [{"code", "title", "detail"}]}: 401 10009 authentication failed, 403 10010
//   authorization failed, 404 10005 not found, 400/422 10002 invalid phone number, 429 10011 with
//   x-ratelimit-limit/-remaining/-reset (seconds until the window resets).
// `carrier` (line type and carrier) is the paid line-type lookup; `caller-name` (CNAM, US only)
// costs extra and is asked only when a name is supplied; portability comes with every answer.
// Telnyx reports VoIP without saying whether it is fixed or app-based: `voip`.

export interface TelnyxConfig extends PaidProviderSettings {
  apiKey: string;
}

export interface TelnyxLookupResponse {
  data?: {
    valid_number?: boolean | null;
    carrier?: { name?: string | null; normalized_carrier?: string | null; type?: string | null } | null;
    caller_name?: { caller_name?: string | null; error_code?: string | null } | null;
    portability?: { ported_status?: string | null } | null;
  } | null;
}

const LINE_TYPES = new Map<string, LineType>(Object.entries({
  mobile: 'mobile',
  'fixed line': 'landline',
  voip: 'voip',
  'toll free': 'tollFree',
  'premium rate': 'premium',
  'shared cost': 'sharedCost',
  'personal number': 'personal',
  pager: 'pager',
  // As the Twilio adapter maps them: universal access and voicemail-only numbers are not mobiles.
  uan: 'landline',
  voicemail: 'landline',
  // 'fixed line or mobile' and 'unknown': the type is not known.
}));

/** Telnyx's codes for a number it cannot look up (no signal), as against a request it refuses. */
const INVALID_NUMBER_CODES = new Set(['10002']);

function errorCodes(text: string): string[] {
  try {
    const body = JSON.parse(text) as { errors?: { code?: unknown }[] };
    return Array.isArray(body.errors) ? body.errors.map((e) => String(e?.code ?? '')) : [];
  } catch {
    return [];
  }
}

function verdict(res: Response, text: string): Verdict | undefined {
  if (res.status === 429) return { kind: 'retry', retryAfterMs: retryAfterMs(res.headers, 'x-ratelimit-reset') };
  if ((res.status === 400 || res.status === 422) && errorCodes(text).some((c) => INVALID_NUMBER_CODES.has(c))) return { kind: 'no-signal' };
  return undefined;
}

/** A phone number in the path as the reference writes it (`/number_lookup/+18665552368`). */
function pathNumber(e164: string): string {
  return /^\+\d{1,15}$/.test(e164) ? e164 : encodeURIComponent(e164);
}

export function createTelnyxProvider(config: TelnyxConfig): SignalProvider {
  const http = providerHttp('Telnyx Number Lookup', 'check TELNYX_API_KEY (or the secret) and that Number Lookup is enabled for the key', config);
  const base = config.baseUrl.replace(/\/$/, '');

  async function lookupOne(item: LookupItem, opts: LookupOptions): Promise<Signals> {
    // CNAM costs extra: asked only when identity has a name to judge.
    const types = [...(opts.skipMobileLookup ? [] : ['carrier']), ...(hasName(item.name) ? ['caller-name'] : [])];
    const empty = noSignals();
    if (types.length === 0) return empty;
    const url = new URL(`${base}/v2/number_lookup/${pathNumber(item.e164)}`);
    for (const type of types) url.searchParams.append('type', type);
    const outcome = await getJson<TelnyxLookupResponse>(http, url, { authorization: `Bearer ${config.apiKey}` }, verdict, opts.lane);
    if (outcome.kind === 'failed') return { ...empty, lookupError: outcome.reason };
    const data = outcome.kind === 'answer' ? outcome.body.data : null;
    if (!data || data.valid_number === false) return empty;
    const carrier = types.includes('carrier') ? data.carrier : null;
    const cnam = types.includes('caller-name') ? data.caller_name?.caller_name : null;
    const ported = data.portability?.ported_status;
    return {
      ...empty,
      lineType: (typeof carrier?.type === 'string' && LINE_TYPES.get(carrier.type)) || 'unknown',
      carrier: text(carrier?.name) ?? text(carrier?.normalized_carrier),
      callerName: text(cnam),
      ported: ported === 'Y' ? true : ported === 'N' ? false : null,
    };
  }

  return {
    name: 'telnyx',
    simulated: false,
    async lookup(items, opts) {
      return mapConcurrent(items, config.concurrency, (item) => lookupOne(item, opts));
    },
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}
