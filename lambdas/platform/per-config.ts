import { config, type Config } from './config';

/**
 * A value built from the configuration (a client, a key) once per container, and built again only
 * when the configuration is parsed again (`reloadConfig`: a local runtime or the admin CLI that has
 * just pointed the environment elsewhere). So nothing needs resetting by hand, and a second local
 * runtime in one process never reuses the first one's clients.
 */
export function perConfig<T>(build: (cfg: Config) => T): () => T {
  let built: { cfg: Config; value: T } | null = null;
  return () => {
    const cfg = config();
    if (built?.cfg !== cfg) built = { cfg, value: build(cfg) };
    return built.value;
  };
}
