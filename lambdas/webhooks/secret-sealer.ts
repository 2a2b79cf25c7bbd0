import * as z from '../platform/zod';

// Signing secrets at rest (docs/webhooks.md, Secrets at rest): webhook endpoint secrets and contact
// callback secrets are stored sealed, never as plaintext. Two ports, not one, so least privilege
// holds in the bundles: a function that only creates secrets carries the sealing adapter alone
// (kms:Encrypt), a function that only signs carries the opening one alone (kms:Decrypt).

/**
 * What a sealed secret is bound to (KMS encryption context; additional authenticated data of the
 * local AES-GCM): a sealed value copied into another organization's item, or to another endpoint or
 * callback URL, does not open.
 */
export type SecretContext = Readonly<Record<string, string>>;

export const SEALED_ALGORITHMS = ['kms', 'local-aes-256-gcm'] as const;

/** A sealed secret as stored: a map, so it never collides with a plaintext string of old items. */
export interface Sealed {
  /** Format version of this shape. */
  v: 1;
  /** Who can open it: AWS KMS, or the local runtime's key file. */
  alg: (typeof SEALED_ALGORITHMS)[number];
  /** Base64 ciphertext (KMS: the CiphertextBlob; local: IV, tag and ciphertext). */
  ct: string;
}

/** A secret as an item holds it: sealed, or the plaintext string of items written before sealing. */
export type StoredSecret = string | Sealed;

export interface SecretSealer {
  seal(plaintext: string, context: SecretContext): Promise<Sealed>;
}

export interface SecretOpener {
  /** Throws SecretUnopenable when the value was tampered with or is opened under another context. */
  open(sealed: Sealed, context: SecretContext): Promise<string>;
}

/** Given to the use cases that create secrets (endpoint registration, contact creation). */
export interface SealPorts {
  readonly sealer: SecretSealer;
}

/** Given to the use cases that sign with a stored secret (deliveries, the URL-change ping). */
export interface OpenPorts {
  readonly opener: SecretOpener;
}

/**
 * A sealed value that will never open (tampered, wrong context, another key): retrying cannot help,
 * unlike a KMS outage or throttling, which propagate as ordinary errors.
 */
export class SecretUnopenable extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretUnopenable';
  }
}

export const SealedSchema: z.ZodMiniType<Sealed> = z.lazySchema(() => z.strictObject({ v: z.literal(1), alg: z.enum(SEALED_ALGORITHMS), ct: z.string().check(z.minLength(1)) }));
export const StoredSecretSchema: z.ZodMiniType<StoredSecret> = z.lazySchema(() => z.union([z.string(), SealedSchema]));

export const isSealed = (stored: StoredSecret): stored is Sealed => typeof stored !== 'string';

/** The plaintext of a stored secret; items written before sealing hold it as a string (migration). */
export async function openStored(ports: OpenPorts, stored: StoredSecret, context: SecretContext): Promise<string> {
  return isSealed(stored) ? ports.opener.open(stored, context) : stored;
}

/** A webhook endpoint's secret is bound to its organization and endpoint (a URL change keeps it). */
export const webhookSecretContext = (organizationId: string, webhookId: string): SecretContext => ({ organization_id: organizationId, webhook_id: webhookId });

/**
 * A callback secret is bound to its organization and callback URL (a contact's URL never changes):
 * someone who can edit items cannot point a delivery at their own URL and have it signed.
 */
export const callbackSecretContext = (organizationId: string, callbackUrl: string): SecretContext => ({ organization_id: organizationId, callback_url: callbackUrl });

/** The context as bytes: sorted keys, so the same context always gives the same bytes. */
export const canonicalContext = (context: SecretContext): Buffer =>
  Buffer.from(JSON.stringify(Object.keys(context).sort().map((k) => [k, context[k]])), 'utf8');
