import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lazyModule } from './lazy-module';

/**
 * Secrets Manager's GetSecretValue, loaded at first use: secrets are read once per container (a
 * provider's key, the cursor key, the downloads signing key), never on a request's hot path after
 * that. A module of its own (./sdk/secrets-read.ts), so that the chunk holds that command only.
 */
const readSdk = /* @__PURE__ */ lazyModule(() => import('./sdk/secrets-read'));

/** The current SecretString of `arn` (undefined for a binary secret), with `client` or a new one. */
export async function readSecretString(arn: string, client?: SecretsManagerClient): Promise<string | undefined> {
  const { GetSecretValueCommand, SecretsManagerClient } = await readSdk();
  const out = await (client ?? new SecretsManagerClient({})).send(new GetSecretValueCommand({ SecretId: arn }));
  return out.SecretString;
}
