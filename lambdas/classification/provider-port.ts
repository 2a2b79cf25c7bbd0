import { perConfig } from '../platform/per-config';
import { lazyModule } from '../platform/aws/lazy-module';
import type { Config } from '../platform/config';
import type { SignalProvider } from './provider';
import { createProviderFromEnv, type ProviderIo } from './classify';

/** The classification provider as a use case is given it by its composition root. */
export interface ClassificationPorts {
  /** The provider the configuration names: built at the first chunk, the same one for every later chunk. */
  readonly provider: () => Promise<SignalProvider>;
}

/**
 * The configured provider, built once per configuration (once per container in AWS, where the
 * configuration never changes) and reused by every chunk: its secret is read once, its HTTP client
 * and limiter kept. Concurrent first calls share one build; a failed build (a secret not filled in
 * yet) is not kept, so the next chunk tries again.
 */
export function providerOncePerConfig(io: ProviderIo = {}, build: (settings: Config, io: ProviderIo) => Promise<SignalProvider> = createProviderFromEnv): () => Promise<SignalProvider> {
  const built = perConfig((cfg) => lazyModule(() => build(cfg, io)));
  return () => built()();
}
