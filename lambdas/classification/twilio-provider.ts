import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { readSecretString } from '../platform/aws/secrets';
import { mapConcurrent } from './resilience';
import { getJson, providerHttp, type PaidProviderSettings } from './provider-http';
import type { SignalProvider } from './provider';
import type { Limiter } from '../ratelimit/shared-limiter';
import { noSignals, type LineStatus, type LineType, type LookupItem, type LookupOptions, type Signals } from './signals';

// Twilio Lookup v2 (https://www.twilio.com/docs/lookup/v2-api): GET {base}/v2/PhoneNumbers/{e164}?Fields=…
// with HTTP Basic auth.
// line_type_intelligence (paid) gives the line type and carrier; line_status (max tier) whether it
// is in service; identity_match (when a name is supplied) Twilio's own name score.

export interface TwilioConfig extends PaidProviderSettings {
  accountSid: string;
  authToken: string;
}

interface LookupResponse {
  valid?: boolean;
  line_type_intelligence?: { type?: string | null; carrier_name?: string | null; error_code?: number | null } | null;
  line_status?: { status?: string | null; error_code?: number | null } | null;
  identity_match?: { summary_score?: number | null; first_name_match?: string | null; last_name_match?: string | null; error_code?: number | null } | null;
}

const LINE_TYPES: Record<string, LineType> = {
  mobile: 'mobile',
  landline: 'landline',
  fixedVoip: 'fixedVoip',
  nonFixedVoip: 'nonFixedVoip',
  tollFree: 'tollFree',
  premium: 'premium',
  sharedCost: 'sharedCost',
  personal: 'personal',
  pager: 'pager',
  uan: 'landline',
  voicemail: 'landline',
};
const STATUSES: Record<string, LineStatus> = { active: 'active', inactive: 'inactive', unreachable: 'unreachable', unknown: 'unknown' };

export function createTwilioProvider(config: TwilioConfig): SignalProvider {
  const http = providerHttp('Twilio Lookup', 'check TWILIO credentials and account', config);
  const auth = 'Basic ' + Buffer.from(`${config.accountSid}:${config.authToken}`).toString('base64');

  async function lookupOne(item: LookupItem, opts: LookupOptions): Promise<Signals> {
    const fields = [...(opts.skipMobileLookup ? [] : ['line_type_intelligence']), ...(opts.tier === 'max' ? ['line_status'] : []), ...(item.name ? ['identity_match'] : [])];
    const empty = noSignals();
    if (fields.length === 0) return empty;
    const url = new URL(`${config.baseUrl.replace(/\/$/, '')}/v2/PhoneNumbers/${encodeURIComponent(item.e164)}`);
    url.searchParams.set('Fields', fields.join(','));
    if (item.name) {
      const [first, last] = item.name.first && item.name.last ? [item.name.first, item.name.last] : splitFull(item.name.full ?? '');
      if (first) url.searchParams.set('FirstName', first);
      if (last) url.searchParams.set('LastName', last);
    }
    // 404: Twilio's answer for a number that is not a valid phone number (no signal).
    const outcome = await getJson<LookupResponse>(http, url, { authorization: auth }, undefined, opts.lane);
    if (outcome.kind === 'failed') return { ...empty, lookupError: outcome.reason };
    if (outcome.kind === 'no-signal' || outcome.body.valid === false) return empty;
    const body = outcome.body;
    const lti = body.line_type_intelligence;
    const score = body.identity_match?.summary_score;
    return {
      ...empty,
      // Own keys only: a type such as 'constructor' is not in the table.
      lineType: lti?.type && Object.hasOwn(LINE_TYPES, lti.type) ? LINE_TYPES[lti.type]! : 'unknown',
      carrier: lti?.carrier_name ?? null,
      lineStatus: body.line_status?.status ? (Object.hasOwn(STATUSES, body.line_status.status) ? STATUSES[body.line_status.status]! : 'unknown') : null,
      nameMatchScore: typeof score === 'number' ? score : null,
    };
  }

  return {
    name: 'twilio',
    simulated: false,
    async lookup(items, opts) {
      return mapConcurrent(items, config.concurrency, (item) => lookupOne(item, opts));
    },
  };
}

function splitFull(full: string): [string, string] {
  const parts = full.trim().split(/\s+/);
  return parts.length > 1 ? [parts[0]!, parts[parts.length - 1]!] : ['', parts[0] ?? ''];
}

/** Credentials from TWILIO_ACCOUNT_SID/TWILIO_AUTH_TOKEN, or from the Secrets Manager secret TWILIO_SECRET_ARN. */
export async function createTwilioProviderFromEnv(env: NodeJS.ProcessEnv, secrets?: SecretsManagerClient, limiter?: Limiter, fetchImpl?: typeof fetch): Promise<SignalProvider> {
  let accountSid = env.TWILIO_ACCOUNT_SID;
  let authToken = env.TWILIO_AUTH_TOKEN;
  if ((!accountSid || !authToken) && env.TWILIO_SECRET_ARN) {
    const parsed = JSON.parse((await readSecretString(env.TWILIO_SECRET_ARN, secrets)) ?? '{}') as { account_sid?: string; auth_token?: string };
    accountSid = parsed.account_sid;
    authToken = parsed.auth_token;
  }
  if (!accountSid || !authToken) throw new Error('twilio provider: set TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN, or TWILIO_SECRET_ARN (JSON {account_sid, auth_token})');
  return createTwilioProvider({
    accountSid,
    authToken,
    baseUrl: env.TWILIO_LOOKUP_BASE_URL ?? 'https://lookups.twilio.com',
    concurrency: Number(env.TWILIO_CONCURRENCY ?? 10),
    requestsPerSecond: Number(env.TWILIO_REQUESTS_PER_SECOND ?? 50),
    timeoutMs: Number(env.TWILIO_TIMEOUT_MS ?? 10_000),
    attempts: Number(env.TWILIO_ATTEMPTS ?? 4),
    limiter,
    fetch: fetchImpl,
  });
}
