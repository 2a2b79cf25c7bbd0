import type { LookupItem, LookupOptions, Signals } from './signals';

/** A source of signals. Providers see a batch and answer one Signals per item, in order. */
export interface SignalProvider {
  readonly name: string;
  readonly simulated: boolean;
  lookup(items: LookupItem[], opts: LookupOptions): Promise<Signals[]>;
  /**
   * What can be answered without a paid lookup (the range screen, the lookup cache), read in
   * batches; undefined for the numbers that need one. Optional: a provider without it answers
   * nothing here. A later `lookup` of the same numbers does not read the cache again.
   */
  screen?(items: LookupItem[], opts: LookupOptions): Promise<(Signals | undefined)[]>;
}

/**
 * The provider refused the service itself (bad credentials, an account without the product, a
 * malformed request): no retry can help, and the upload fails with this name in its message
 * (`Processing failed (ProviderConfigurationError)`); the operator finds what to check in the log.
 */
export class ProviderConfigurationError extends Error {
  override name = 'ProviderConfigurationError';
}

/** The provider failed after its retries; the caller's workflow may retry the whole step. */
export class TransientProviderError extends Error {
  override name = 'TransientProviderError';
}
