import { kms } from './kms-client';
import { lazyModule } from '../platform/aws/lazy-module';

const decryptSdk = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/kms-decrypt'));
import { SecretUnopenable, type SecretOpener } from './secret-sealer';

// KMS's answers for a blob that will never decrypt here: altered, sealed under another context,
// or under another key. Anything else (throttling, an outage) propagates and the attempt is retried.
const UNOPENABLE = new Set(['InvalidCiphertextException', 'IncorrectKeyException', 'InvalidKeyUsageException']);

/**
 * Opens with KMS Decrypt, naming the key (a blob of another key is refused rather than decrypted
 * with whatever key it names) and the same encryption context it was sealed with. Only
 * kms:Decrypt: this module is what the functions that sign carry.
 */
export function kmsSecretOpener(keyId: () => string): SecretOpener {
  return {
    async open(sealed, context) {
      if (sealed.alg !== 'kms') throw new SecretUnopenable(`a secret sealed with ${sealed.alg} cannot be opened with KMS`);
      try {
        const { DecryptCommand, KMSClient } = await decryptSdk();
        const out = await kms(KMSClient).send(new DecryptCommand({ KeyId: keyId(), CiphertextBlob: Buffer.from(sealed.ct, 'base64'), EncryptionContext: { ...context } }));
        if (!out.Plaintext) throw new Error('KMS Decrypt answered without Plaintext');
        return Buffer.from(out.Plaintext).toString('utf8');
      } catch (error) {
        const name = (error as { name?: string }).name ?? '';
        if (UNOPENABLE.has(name)) throw new SecretUnopenable(`KMS refused to open the secret: ${name}`);
        throw error;
      }
    },
  };
}
