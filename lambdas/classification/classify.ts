import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { deriveStatus, type AnswerIntent, type IdentityBand } from './vocabulary';
import { config, type Config } from '../platform/config';
import { answerIntentOf } from './rules';
import { identityOf } from './identity';
import type { SignalProvider } from './provider';
import { offlineProvider } from './offline-provider';
import { simulatorProvider } from './simulator-provider';
import { createTwilioProviderFromEnv } from './twilio-provider';
import { createTelnyxProvider } from './telnyx-provider';
import { createTrestleProvider } from './trestle-provider';
import { apiKeyFrom } from './provider-secret';
import { chainFromSpec } from './chain-provider';
import { containerRateLimiter } from '../ratelimit/shared-limiter';
import { nowMs } from '../platform/clock';
import { cachedProvider } from './cached-provider';
export { paidRatePerSecond } from './paid-rate';
import { cachePolicyFromConfig } from './lookup-cache-policy';
import { dynamoLookupCache } from './lookup-cache-repository';
import { noLookupCache } from './lookup-cache-store';
import type { LookupOrigin, Signals } from './signals';

export { TransientProviderError, type SignalProvider } from './provider';
export { offlineProvider } from './offline-provider';
export { simulatorProvider } from './simulator-provider';

export interface ClassifyInput {
  e164: string;
  name?: { full?: string; first?: string; last?: string };
}
export interface ClassifyOptions {
  tier: 'standard' | 'max';
  skipMobileLookup: boolean;
  /** Whose numbers these are (the lookup cache scopes identity answers to the organization). */
  organizationId?: string;
  /** Whom the lookups are for (an upload's id): uploads waiting on the shared rate are served in turn. */
  lane?: string;
  /** Who buys the numbers (an upload's chunk item), for the lookup cache's claims (signals.ts LookupOptions). */
  claimant?: string;
}
export interface ClassifyResult {
  e164: string;
  answerIntent: AnswerIntent;
  /** null when no name was supplied. */
  identity: IdentityBand | null;
  status: string;
  simulated: boolean;
  /** The provider's failure for this number after its retries (the number is then Unknown). */
  lookupError?: string;
  /** Paid lookup, cache or free (cached-provider.ts); absent for the free providers. */
  origin?: LookupOrigin;
}

/** What a paid provider reaches the network and its secret with: the root's (tests: stand-ins); the global fetch and a new Secrets Manager client when absent. */
export interface ProviderIo {
  fetch?: typeof fetch;
  secrets?: SecretsManagerClient;
}

/**
 * The provider CLASSIFICATION_PROVIDER names, behind the steps of CLASSIFICATION_CHAIN. A paid
 * provider paces its calls through one bucket in the table for the whole account
 * (`RATE#provider#<name>`), shared by every concurrent chunk of every upload; an in-process limit
 * without a table (unit tests). A composition root builds it once (./provider-port.ts).
 */
export async function createProviderFromEnv(settings: Config = config(), io: ProviderIo = {}): Promise<SignalProvider> {
  const name = settings.CLASSIFICATION_PROVIDER;
  const limiter = (perSecond: number) => (settings.TABLE_NAME ? containerRateLimiter(`provider#${name}`, perSecond) : undefined);
  let provider: SignalProvider;
  if (name === 'offline') provider = offlineProvider;
  else if (name === 'simulator') provider = simulatorProvider;
  else if (name === 'twilio') {
    const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS } = settings;
    provider = await createTwilioProviderFromEnv(
      { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS },
      io.secrets,
      limiter(Number(TWILIO_REQUESTS_PER_SECOND ?? 50)),
      io.fetch,
    );
  } else if (name === 'telnyx' || name === 'trestle') {
    // Both take an API key (in the environment, or a secret's {"api_key"}) and the same settings.
    const P = name === 'telnyx' ? 'TELNYX' : 'TRESTLE';
    const apiKey = await apiKeyFrom(name, { apiKey: settings[`${P}_API_KEY`], secretArn: settings[`${P}_SECRET_ARN`], names: `${P}_API_KEY, or ${P}_SECRET_ARN (JSON {"api_key": "…"})` }, io.secrets);
    const common = {
      apiKey,
      concurrency: settings[`${P}_CONCURRENCY`],
      requestsPerSecond: settings[`${P}_REQUESTS_PER_SECOND`],
      timeoutMs: settings[`${P}_TIMEOUT_MS`],
      attempts: settings[`${P}_ATTEMPTS`],
      limiter: limiter(settings[`${P}_REQUESTS_PER_SECOND`]),
      fetch: io.fetch,
    };
    provider = name === 'telnyx' ? createTelnyxProvider({ ...common, baseUrl: settings.TELNYX_LOOKUP_BASE_URL }) : createTrestleProvider({ ...common, baseUrl: settings.TRESTLE_BASE_URL });
  } else throw new Error(`CLASSIFICATION_PROVIDER '${String(name)}' is unknown: use offline, simulator, twilio, telnyx or trestle`);
  // A paid provider answers from the lookup cache where it can (free ranges never reach it).
  const paid = name === 'twilio' || name === 'telnyx' || name === 'trestle';
  return chainFromSpec(settings.CLASSIFICATION_CHAIN, paid ? withLookupCache(provider, settings) : provider);
}

/**
 * A paid provider behind the lookup cache (in the table; none without one), or with the cache off
 * (LOOKUP_CACHE=off) behind the range screen alone: free ranges never reach it either way.
 */
export function withLookupCache(paid: SignalProvider, settings: Config = config()): SignalProvider {
  const store = settings.LOOKUP_CACHE === 'on' && settings.TABLE_NAME ? dynamoLookupCache() : noLookupCache;
  return cachedProvider(paid, store, cachePolicyFromConfig(settings), { nowMs });
}

/** Signals from the provider, then the rule table and the name match; same order as `items`. */
export async function classifyBatch(provider: SignalProvider, items: ClassifyInput[], opts: ClassifyOptions): Promise<ClassifyResult[]> {
  const signals = await provider.lookup(items, opts);
  return items.map((item, i) => resultOf(item, signals[i]!));
}

/**
 * What the provider answers without a paid lookup (range screen, lookup cache: SignalProvider.screen),
 * classified; undefined for the numbers that need one. Nothing when the provider cannot screen.
 */
export async function screenBatch(provider: SignalProvider, items: ClassifyInput[], opts: ClassifyOptions): Promise<(ClassifyResult | undefined)[]> {
  if (!provider.screen || items.length === 0) return items.map(() => undefined);
  const signals = await provider.screen(items, opts);
  return items.map((item, i) => (signals[i] ? resultOf(item, signals[i]) : undefined));
}

function resultOf(item: ClassifyInput, s: Signals): ClassifyResult {
  const answerIntent = answerIntentOf(s).intent;
  const identity = identityOf(item.name, s);
  return { e164: item.e164, answerIntent, identity, status: deriveStatus(answerIntent, identity), simulated: s.simulated, ...(s.lookupError ? { lookupError: s.lookupError } : {}), ...(s.origin ? { origin: s.origin } : {}) };
}
