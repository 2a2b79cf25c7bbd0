import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { lazyModule } from './lazy-module';

/**
 * The Secrets Manager SDK, loaded at first use: secrets are read once per container (a provider's
 * key, the cursor key, the downloads signing key), never on a request's hot path after that.
 */
export const secretsSdk = /* @__PURE__ */ lazyModule(() => import('@aws-sdk/client-secrets-manager'));

/** A new Secrets Manager client (the SDK loaded on first use). */
export async function secretsClient(): Promise<SecretsManagerClient> {
  const { SecretsManagerClient } = await secretsSdk();
  return new SecretsManagerClient({});
}

/** The current SecretString of `arn` (undefined for a binary secret). */
export async function readSecretString(arn: string, client?: SecretsManagerClient): Promise<string | undefined> {
  const { GetSecretValueCommand } = await secretsSdk();
  const out = await (client ?? (await secretsClient())).send(new GetSecretValueCommand({ SecretId: arn }));
  return out.SecretString;
}
