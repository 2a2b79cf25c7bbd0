import { rangeScreen } from './range-screen';
import type { LookupItem, LookupOptions, Signals } from './signals';
import type { SignalProvider } from './provider';

/**
 * A step in front of the provider: answers the numbers it can decide and leaves the rest
 * (undefined) to the next step. A lookup cache is one; the free range check below another.
 */
export interface SignalStage {
  readonly name: string;
  answer(items: LookupItem[], opts: LookupOptions): Promise<(Signals | undefined)[]>;
}

/** The range screen (range-screen.ts) as the chain's `offline-ranges` step: the same one the lookup cache applies. */
export const offlineRanges: SignalStage = rangeScreen;

/**
 * The stages in order, then `last` for whatever none of them answered (one batch, in order): a
 * SignalProvider like any other, answering one Signals per item in the order given. It reports
 * `last`'s name (what the paid lookups are counted under); a number a stage answered carries that
 * stage's signals (`simulated` false), not the provider's.
 */
export function chainProvider(stages: readonly SignalStage[], last: SignalProvider): SignalProvider {
  if (stages.length === 0) return last;
  return {
    name: last.name,
    simulated: last.simulated,
    async screen(items, opts) {
      const out = new Array<Signals | undefined>(items.length);
      let open = items.map((_, i) => i);
      for (const stage of stages) {
        if (open.length === 0) break;
        const answers = await stage.answer(open.map((i) => items[i]!), opts);
        open = open.filter((i, k) => (answers[k] === undefined ? true : void (out[i] = answers[k])));
      }
      if (open.length > 0 && last.screen) {
        const rest = await last.screen(open.map((i) => items[i]!), opts);
        open.forEach((i, k) => (out[i] = rest[k]));
      }
      return out;
    },
    async lookup(items, opts) {
      const out = new Array<Signals | undefined>(items.length);
      let open = items.map((_, i) => i);
      for (const stage of stages) {
        if (open.length === 0) break;
        const answers = await stage.answer(
          open.map((i) => items[i]!),
          opts,
        );
        open = open.filter((i, k) => {
          const answer = answers[k];
          if (answer === undefined) return true;
          out[i] = answer;
          return false;
        });
      }
      if (open.length > 0) {
        const rest = await last.lookup(
          open.map((i) => items[i]!),
          opts,
        );
        if (rest.length !== open.length) throw new Error(`provider ${last.name} answered ${rest.length} of ${open.length} numbers`);
        open.forEach((i, k) => (out[i] = rest[k]!));
      }
      return out as Signals[];
    },
  };
}

export const CHAIN_STAGES = ['offline-ranges', 'paid'] as const;
export type ChainStageName = (typeof CHAIN_STAGES)[number];

/** The stages of CLASSIFICATION_CHAIN ('offline-ranges,paid'): known names, each once, `paid` last. */
export function parseChain(spec: string): ChainStageName[] {
  const names = spec.split(',').map((s) => s.trim());
  for (const name of names) {
    if (!(CHAIN_STAGES as readonly string[]).includes(name)) throw new Error(`CLASSIFICATION_CHAIN: '${name}' is not a step (use ${CHAIN_STAGES.join(', ')}, comma-separated, ending with paid)`);
  }
  if (new Set(names).size !== names.length) throw new Error(`CLASSIFICATION_CHAIN: '${spec}' names a step twice`);
  if (names[names.length - 1] !== 'paid') throw new Error(`CLASSIFICATION_CHAIN: '${spec}' must end with paid (the provider answers what the steps before it leave)`);
  return names as ChainStageName[];
}

const STAGES: Record<Exclude<ChainStageName, 'paid'>, SignalStage> = { 'offline-ranges': offlineRanges };

/** The provider behind the chain's steps. */
export function chainFromSpec(spec: string, provider: SignalProvider): SignalProvider {
  const names = parseChain(spec);
  return chainProvider(
    names.filter((n): n is Exclude<ChainStageName, 'paid'> => n !== 'paid').map((n) => STAGES[n]),
    provider,
  );
}
