import type { Storage } from './storage-port';
import { perConfig } from './per-config';
import { sdkStorage } from './aws/sdk-storage';

export type { Storage } from './storage-port';

// The AWS root's storage: the SDK's own endpoint and credential chain (the execution role's in a
// Lambda; LocalStack through AWS_ENDPOINT_URL), S3_FORCE_PATH_STYLE and S3_LINK_ENDPOINT from the
// configuration. It is what a function reaches when no other root has bound a storage, so an entry
// needs no wiring for it; built once per configuration, at first use.
const environmentStorage = /* @__PURE__ */ perConfig((cfg) => sdkStorage({ forcePathStyle: cfg.S3_FORCE_PATH_STYLE, linkEndpoint: cfg.S3_LINK_ENDPOINT }));

let bound: Storage | null = null;

/**
 * The storage of this process: the one a composition root bound (the local runtime, the admin
 * CLI: their embedded or external stores), else the environment's (AWS).
 */
export function storage(): Storage {
  return bound ?? environmentStorage();
}

/**
 * For a composition root that runs on stores of its own (the local runtime, the admin CLI): every
 * repository of this process reaches `store` until the returned release is called (which lets go
 * only if `store` is still the one bound: a later root's binding stays).
 */
export function bindStorage(store: Storage): () => void {
  bound = store;
  return () => {
    if (bound === store) bound = null;
  };
}
