import type { LookupItem, LookupOptions, Signals } from './signals';

/** A source of signals. Providers see a batch and answer one Signals per item, in order. */
export interface SignalProvider {
  readonly name: string;
  readonly simulated: boolean;
  lookup(items: LookupItem[], opts: LookupOptions): Promise<Signals[]>;
}

/** The provider failed after its retries; the caller's workflow may retry the whole step. */
export class TransientProviderError extends Error {
  override name = 'TransientProviderError';
}
