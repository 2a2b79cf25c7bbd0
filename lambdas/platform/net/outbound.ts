import { systemResolver, type Resolver } from './resolver';
import { DEFAULT_TIMEOUT_MS } from './settings';

/**
 * How the service reaches customer-supplied URLs (webhook receivers, contact callbacks): name
 * resolution, the per-attempt timeout, and extra trusted CAs. A port so a test's composition root
 * can resolve names without DNS, shorten the timeout or trust a test CA, for its runtime only.
 */
export interface OutboundNet {
  readonly resolve: Resolver;
  readonly timeoutMs: number;
  /** A CA (PEM) trusted besides the system's: never set outside tests. */
  readonly trustedCa: string | null;
}

export interface NetPorts {
  readonly net: OutboundNet;
}

/** What every deployed function and the local runtime use. */
export const systemNet = (): OutboundNet => ({ resolve: systemResolver, timeoutMs: DEFAULT_TIMEOUT_MS, trustedCa: null });
