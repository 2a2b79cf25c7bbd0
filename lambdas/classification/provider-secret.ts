import type { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { readSecretString } from '../platform/aws/secrets';

/**
 * A provider's API key: the plain setting when given (local runs, tests), else the `api_key` of the
 * Secrets Manager secret (JSON `{"api_key": "…"}`, created by the stack and filled in by the operator).
 */
export async function apiKeyFrom(provider: string, settings: { apiKey?: string; secretArn?: string; names: string }, secrets?: SecretsManagerClient): Promise<string> {
  if (settings.apiKey) return settings.apiKey;
  if (settings.secretArn) {
    const secret = await readSecretString(settings.secretArn, secrets);
    let parsed: unknown;
    try {
      parsed = JSON.parse(secret ?? '{}');
    } catch {
      throw new Error(`${provider} provider: the secret ${settings.secretArn} is not JSON {"api_key": "…"}`);
    }
    const key = (parsed as { api_key?: unknown } | null)?.api_key;
    if (typeof key === 'string' && key !== '') return key;
    throw new Error(`${provider} provider: the secret ${settings.secretArn} has no "api_key" (JSON {"api_key": "…"})`);
  }
  throw new Error(`${provider} provider: set ${settings.names}`);
}
