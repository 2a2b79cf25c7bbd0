import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { canonicalContext, SecretUnopenable, type SecretOpener, type SecretSealer } from '../lambdas/webhooks/secret-sealer';
import { keyFileIn } from './key-file';

const ALG = 'local-aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The file in the data folder that holds the local runtime's secrets key (docs/operations.md). */
export const SECRETS_KEY_FILE = 'secrets-key';

/**
 * The local runtime's key for signing secrets at rest: kept in the data folder (created at first
 * start, mode 0600); with no data folder (tests) a key of this process only, as the table is.
 */
export function localSecretsKey(dataDir: string | null): Buffer {
  if (!dataDir) return randomBytes(32);
  const hex = keyFileIn(dataDir, SECRETS_KEY_FILE, 'the webhook endpoints\' and callbacks\' stored signing secrets can no longer be opened: every delivery fails until each endpoint is deleted and created again, docs/webhooks.md');
  if (!/^[0-9a-f]{64}$/i.test(hex)) throw new Error(`${SECRETS_KEY_FILE} in ${dataDir} must hold 64 hex characters (a 256-bit key)`);
  return Buffer.from(hex, 'hex');
}

/**
 * The local stand-in for KMS: AES-256-GCM with a fresh IV per secret and the context as additional
 * authenticated data, so an altered value or one opened under another organization, endpoint or
 * callback URL fails its tag check, as KMS refuses a blob under another encryption context.
 */
export function localSecretSealer(key: Buffer): SecretSealer & SecretOpener {
  if (key.length !== 32) throw new Error('the local secrets key must be 32 bytes');
  return {
    async seal(plaintext, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(canonicalContext(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return { v: 1, alg: ALG, ct: Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64') };
    },
    async open(sealed, context) {
      if (sealed.alg !== ALG) throw new SecretUnopenable(`a secret sealed with ${sealed.alg} cannot be opened with the local key`);
      const bytes = Buffer.from(sealed.ct, 'base64');
      if (bytes.length < IV_BYTES + TAG_BYTES) throw new SecretUnopenable('the sealed secret is too short');
      const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
      decipher.setAAD(canonicalContext(context));
      decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      try {
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        throw new SecretUnopenable('the sealed secret does not open with this key under this context (altered, or moved to another item)');
      }
    },
  };
}
