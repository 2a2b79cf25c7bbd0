import { deriveStatus, type AnswerIntent, type IdentityBand } from './vocabulary';
import { config, type Config } from '../platform/config';
import { answerIntentOf } from './rules';
import { identityOf } from './identity';
import type { SignalProvider } from './provider';
import { offlineProvider } from './offline-provider';
import { simulatorProvider } from './simulator-provider';
import { createTwilioProviderFromEnv } from './twilio-provider';
import { containerRateLimiter } from '../ratelimit/shared-limiter';
import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';

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
}

export async function createProviderFromEnv(settings: Config = config()): Promise<SignalProvider> {
  const name = settings.CLASSIFICATION_PROVIDER;
  if (name === 'offline') return offlineProvider;
  if (name === 'simulator') return simulatorProvider;
  if (name === 'twilio') {
    const { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS } = settings;
    // Every concurrent chunk of every upload shares the account's rate through one bucket in the table.
    const limiter = settings.TABLE_NAME ? containerRateLimiter('provider#twilio', Number(TWILIO_REQUESTS_PER_SECOND ?? 50)) : undefined;
    return createTwilioProviderFromEnv(
      { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, TWILIO_SECRET_ARN, TWILIO_LOOKUP_BASE_URL, TWILIO_CONCURRENCY, TWILIO_REQUESTS_PER_SECOND, TWILIO_TIMEOUT_MS, TWILIO_ATTEMPTS },
      new SecretsManagerClient({}),
      limiter,
    );
  }
  throw new Error(`CLASSIFICATION_PROVIDER '${name}' is unknown: use offline, simulator or twilio`);
}

/** Signals from the provider, then the rule table and the name match; same order as `items`. */
export async function classifyBatch(provider: SignalProvider, items: ClassifyInput[], opts: ClassifyOptions): Promise<ClassifyResult[]> {
  const signals = await provider.lookup(items, opts);
  return items.map((item, i) => {
    const s = signals[i]!;
    const answerIntent = answerIntentOf(s).intent;
    const identity = identityOf(item.name, s);
    return { e164: item.e164, answerIntent, identity, status: deriveStatus(answerIntent, identity), simulated: s.simulated, ...(s.lookupError ? { lookupError: s.lookupError } : {}) };
  });
}
