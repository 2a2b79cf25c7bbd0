import { createHash } from 'node:crypto';
import { deriveStatus, type AnswerIntent, type IdentityBand } from './vocabulary';
import { normalizeUsCa } from './normalize';

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
  identity: IdentityBand | null;
  status: string;
  simulated: boolean;
}

export interface SignalProvider {
  readonly name: string;
  readonly simulated: boolean;
  classify(items: ClassifyInput[], opts: ClassifyOptions): Promise<{ answerIntent: AnswerIntent; identity: IdentityBand }[]>;
}

/** The provider failed after its retries; the caller's workflow may retry the whole step. */
export class TransientProviderError extends Error {
  override name = 'TransientProviderError';
}

const hash = (value: string) => createHash('sha256').update(value).digest();

/** Structure only: toll-free, premium and VoIP ranges are Non-Mobile; the rest is honestly Unknown. */
export const offlineProvider: SignalProvider = {
  name: 'offline',
  simulated: false,
  async classify(items) {
    return items.map((item) => {
      const type = normalizeUsCa(item.e164)?.type ?? 'UNKNOWN';
      const nonMobile = ['TOLL_FREE', 'PREMIUM_RATE', 'VOIP', 'FIXED_LINE', 'SHARED_COST', 'UAN', 'PAGER'].includes(type);
      return { answerIntent: nonMobile ? 'Non-Mobile' : 'Unknown', identity: 'Unknown' };
    });
  },
};

const SIM_INTENTS: AnswerIntent[] = ['Likely Answer', 'Likely Answer', 'Likely Call Screening', 'Likely Voicemail', 'Non-Mobile', 'Unknown'];
const SIM_BANDS: IdentityBand[] = ['Very High', 'High', 'Medium', 'Low', 'Unknown'];

/** Deterministic signals from a hash of the number, for development and demos; labelled simulated. */
export const simulatorProvider: SignalProvider = {
  name: 'simulator',
  simulated: true,
  async classify(items) {
    return items.map((item) => {
      const digest = hash(item.e164);
      return { answerIntent: SIM_INTENTS[digest[0]! % SIM_INTENTS.length]!, identity: SIM_BANDS[digest[1]! % SIM_BANDS.length]! };
    });
  },
};

export function createProviderFromEnv(env: NodeJS.ProcessEnv = process.env): SignalProvider {
  const name = env.CLASSIFICATION_PROVIDER ?? 'simulator';
  if (name === 'offline') return offlineProvider;
  if (name === 'simulator') return simulatorProvider;
  throw new Error(`CLASSIFICATION_PROVIDER '${name}' is not available (offline, simulator)`);
}

export async function classifyBatch(provider: SignalProvider, items: ClassifyInput[], opts: ClassifyOptions): Promise<ClassifyResult[]> {
  const signals = await provider.classify(items, opts);
  return items.map((item, i) => {
    const s = signals[i]!;
    const hasName = Boolean(item.name && (item.name.full || (item.name.first && item.name.last)));
    const identity = hasName ? s.identity : null;
    return { e164: item.e164, answerIntent: s.answerIntent, identity, status: deriveStatus(s.answerIntent, identity), simulated: provider.simulated };
  });
}
