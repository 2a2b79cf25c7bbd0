import { mapConcurrent } from './resilience';
import { getJson, retryAfterMs, providerHttp, type PaidProviderSettings, type Verdict } from './provider-http';
import { noSignals, type LineType, type LookupItem, type LookupOptions, type Signals } from './signals';
import type { SignalProvider } from './provider';
import { hasName } from './identity';

// Trestle, as its API reference documents it (the source of its documentation site,
// github.com/TrestleIQ/docs: openapi/phone-validation.openapi.yaml, api-reference/real-contact-api-v1-1.mdx,
// guides/errors.mdx and guides/rate-limits.mdx):
//   without a name, Phone Intel 3.0:  GET {base}/3.0/phone_intel?phone=…
//     200 {"is_valid", "activity_score", "line_type", "carrier", "is_prepaid", "error", "warnings", …}
//   with a name, Real Contact 1.1:    GET {base}/1.1/real_contact?name=…&phone=…
//     200 {"phone.is_valid", "phone.activity_score", "phone.line_type", "phone.name_match",
//          "phone.contact_grade", …} (the reference page's keys; its OpenAPI file nests the same
//          fields under "phone", which is read too)
//   header x-api-key: <API key>
//   errors {"errorCode", "message", "hint"}: 400 bad request (a malformed number), 403
//   INVALID_API_KEY / FORBIDDEN (key invalid, disabled, expired or without the product), 429
//   RATE_LIMIT_EXCEEDED (per-second limit: retry with backoff) or QUOTA_EXCEEDED (the billing
//   period's quota: retries cannot help), 500. A 200 may carry a partial `error`; what it holds is
//   still usable.
// The phone is sent as its 10 national digits, the form of every example in the reference (the
// service handles +1 numbers only). line_type: Landline, Mobile, FixedVOIP, NonFixedVOIP, Premium,
// TollFree, Voicemail, Other. activity_score 0–100 (rules.ts, LOW_ACTIVITY_MAX). name_match:
// whether the supplied name belongs to the number in Trestle's data (no carrier in that answer).

export interface TrestleConfig extends PaidProviderSettings {
  apiKey: string;
}

export interface TrestlePhoneIntelResponse {
  is_valid?: boolean | null;
  activity_score?: number | null;
  line_type?: string | null;
  carrier?: string | null;
}

/** Real Contact 1.1: flat dotted keys on the reference page, nested under `phone` in its OpenAPI file. */
export interface TrestleRealContactResponse {
  'phone.is_valid'?: boolean | null;
  'phone.activity_score'?: number | null;
  'phone.line_type'?: string | null;
  'phone.name_match'?: boolean | null;
  phone?: { is_valid?: boolean | null; activity_score?: number | null; line_type?: string | null; name_match?: boolean | null } | null;
}

const LINE_TYPES = new Map<string, LineType>(
  Object.entries({
    Mobile: 'mobile',
    Landline: 'landline',
    FixedVOIP: 'fixedVoip',
    NonFixedVOIP: 'nonFixedVoip',
    Premium: 'premium',
    TollFree: 'tollFree',
    // A voicemail-only service is not a mobile (as the Twilio adapter maps Twilio's voicemail).
    Voicemail: 'landline',
    // Other: "line type is unclear".
  }),
);

function errorCode(text: string): string {
  try {
    const body = JSON.parse(text) as { errorCode?: unknown; error?: unknown };
    return String(body.errorCode ?? body.error ?? '');
  } catch {
    return '';
  }
}

function verdict(res: Response, text: string): Verdict | undefined {
  if (res.status === 429) {
    if (/quota/i.test(errorCode(text))) return { kind: 'configuration', reason: "the billing period's quota is used up: raise the plan in Trestle's portal" };
    return { kind: 'retry', retryAfterMs: retryAfterMs(res.headers) };
  }
  // We send only well-formed numbers and names; a 400 is about this number's input, not the account.
  if (res.status === 400) return { kind: 'number-failed', reason: text || 'bad request' };
  return undefined;
}

const lineTypeOf = (value: unknown): LineType => (typeof value === 'string' && LINE_TYPES.get(value)) || 'unknown';
const scoreOf = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 100 ? value : null);
const booleanOf = (value: unknown): boolean | null => (typeof value === 'boolean' ? value : null);
const textOf = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);

/** The reference's phone form: 10 national digits for a +1 number. */
function phoneParam(e164: string): string {
  return /^\+1\d{10}$/.test(e164) ? e164.slice(2) : e164;
}

function fullName(name: NonNullable<LookupItem['name']>): string {
  return (name.full ?? [name.first, name.last].filter(Boolean).join(' ')).trim();
}

export function createTrestleProvider(config: TrestleConfig): SignalProvider {
  const http = providerHttp('Trestle', "check TRESTLE_API_KEY (or the secret), the key's product access and the wallet", config);
  const base = config.baseUrl.replace(/\/$/, '');
  const headers = { 'x-api-key': config.apiKey };

  async function phoneIntel(item: LookupItem, opts: LookupOptions): Promise<Signals> {
    const url = new URL(`${base}/3.0/phone_intel`);
    url.searchParams.set('phone', phoneParam(item.e164));
    const outcome = await getJson<TrestlePhoneIntelResponse>(http, url, headers, verdict, opts.lane);
    if (outcome.kind === 'failed') return { ...noSignals(), lookupError: outcome.reason };
    if (outcome.kind === 'no-signal' || outcome.body.is_valid === false) return noSignals();
    const body = outcome.body;
    return { ...noSignals(), lineType: lineTypeOf(body.line_type), carrier: textOf(body.carrier), activityScore: scoreOf(body.activity_score) };
  }

  async function realContact(item: LookupItem, name: string, opts: LookupOptions): Promise<Signals> {
    const url = new URL(`${base}/1.1/real_contact`);
    url.searchParams.set('name', name);
    url.searchParams.set('phone', phoneParam(item.e164));
    const outcome = await getJson<TrestleRealContactResponse>(http, url, headers, verdict, opts.lane);
    if (outcome.kind === 'failed') return { ...noSignals(), lookupError: outcome.reason };
    if (outcome.kind === 'no-signal') return noSignals();
    const b = outcome.body;
    const nested = b.phone ?? {};
    const pick = <K extends 'is_valid' | 'activity_score' | 'line_type' | 'name_match'>(key: K) => (`phone.${key}` in b ? b[`phone.${key}`] : nested[key]);
    if (pick('is_valid') === false) return noSignals();
    return {
      ...noSignals(),
      // skip_mobile_lookup: the line type comes from the number's structure, whichever provider answers.
      ...(opts.skipMobileLookup ? {} : { lineType: lineTypeOf(pick('line_type')), activityScore: scoreOf(pick('activity_score')) }),
      nameMatch: booleanOf(pick('name_match')),
    };
  }

  function lookupOne(item: LookupItem, opts: LookupOptions): Promise<Signals> {
    const name = hasName(item.name) ? fullName(item.name) : '';
    if (name) return realContact(item, name, opts);
    return opts.skipMobileLookup ? Promise.resolve(noSignals()) : phoneIntel(item, opts);
  }

  return {
    name: 'trestle',
    simulated: false,
    async lookup(items, opts) {
      return mapConcurrent(items, config.concurrency, (item) => lookupOne(item, opts));
    },
  };
}
