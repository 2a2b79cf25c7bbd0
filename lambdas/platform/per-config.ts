import { config, type Config } from './config';

/**
 * A value built from the configuration (a client, a key) once per container, and built again only
 * when the configuration is parsed again (a local root's `configureRoot`, a configuration test's
 * `reloadConfig`). So nothing needs resetting by hand.
 */
export function perConfig<T>(build: (cfg: Config) => T): () => T {
  let built: { cfg: Config; value: T } | null = null;
  return () => {
    const cfg = config();
    if (built?.cfg !== cfg) built = { cfg, value: build(cfg) };
    return built.value;
  };
}
