import { kms } from './kms-client';
import { lazyModule } from '../platform/aws/lazy-module';

const encryptSdk = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/kms-encrypt'));
import type { SecretSealer } from './secret-sealer';

/**
 * Seals with KMS Encrypt under the service's customer-managed key, the context as encryption
 * context. The secrets are at most 256 bytes, far under Encrypt's 4 KB: one call, no data key to
 * manage (docs/webhooks.md says why not envelope encryption). Only kms:Encrypt: this module is what
 * the functions that create secrets carry.
 */
export function kmsSecretSealer(keyId: () => string): SecretSealer {
  return {
    async seal(plaintext, context) {
      const { EncryptCommand, KMSClient } = await encryptSdk();
      const out = await kms(KMSClient).send(new EncryptCommand({ KeyId: keyId(), Plaintext: Buffer.from(plaintext, 'utf8'), EncryptionContext: { ...context } }));
      if (!out.CiphertextBlob) throw new Error('KMS Encrypt answered without a CiphertextBlob');
      return { v: 1, alg: 'kms', ct: Buffer.from(out.CiphertextBlob).toString('base64') };
    },
  };
}
