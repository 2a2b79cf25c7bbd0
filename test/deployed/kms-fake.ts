import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/** One answer of the fake: the HTTP status and the JSON body KMS would send. */
export interface KmsAnswer {
  status: number;
  body: Record<string, unknown>;
}

const IV = 12;
const TAG = 16;

/**
 * KMS for the deployed-artifact harness, speaking its JSON protocol (`X-Amz-Target:
 * TrentService.<Operation>`, blobs in base64): Encrypt, Decrypt and GenerateDataKey under the
 * template's keys, each with key material of its own made here. A ciphertext blob names its key
 * (as KMS's do) and is sealed with AES-256-GCM, the encryption context as additional data, so a
 * wrong context, an altered blob or another key answers InvalidCiphertextException /
 * IncorrectKeyException as KMS would.
 */
export class KmsFake {
  private readonly material = new Map<string, Buffer>();

  /** @param keyArns The ARNs of the template's AWS::KMS::Key resources. */
  constructor(keyArns: readonly string[]) {
    for (const arn of keyArns) this.material.set(arn, randomBytes(32));
  }

  /** The ARN of the key a request names (ARN or bare key id), or null when it is none of ours. */
  keyArnOf(keyId: unknown): string | null {
    if (typeof keyId !== 'string') return null;
    for (const arn of this.material.keys()) if (arn === keyId || arn.endsWith(`:key/${keyId}`)) return arn;
    return null;
  }

  /** The key a ciphertext blob names, for IAM's resource of a Decrypt. */
  blobKeyArn(blobBase64: unknown): string | null {
    if (typeof blobBase64 !== 'string') return null;
    const blob = Buffer.from(blobBase64, 'base64');
    return blob.length > 1 ? blob.subarray(1, 1 + blob[0]!).toString('utf8') : null;
  }

  handle(operation: string, json: Record<string, unknown>): KmsAnswer {
    const context = (json.EncryptionContext ?? {}) as Record<string, string>;
    switch (operation) {
      case 'Encrypt': {
        const arn = this.keyArnOf(json.KeyId);
        if (!arn) return notFound(json.KeyId);
        const plaintext = Buffer.from(String(json.Plaintext ?? ''), 'base64');
        if (plaintext.length < 1 || plaintext.length > 4096) return error('ValidationException', 'Plaintext must be 1 to 4096 bytes');
        return ok({ CiphertextBlob: this.seal(arn, plaintext, context), KeyId: arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
      }
      case 'GenerateDataKey': {
        const arn = this.keyArnOf(json.KeyId);
        if (!arn) return notFound(json.KeyId);
        const bytes = json.KeySpec === 'AES_128' ? 16 : json.KeySpec === 'AES_256' ? 32 : Number(json.NumberOfBytes);
        if (!Number.isInteger(bytes) || bytes < 1 || bytes > 1024) return error('ValidationException', 'KeySpec or NumberOfBytes (1 to 1024) is required');
        const dataKey = randomBytes(bytes);
        return ok({ CiphertextBlob: this.seal(arn, dataKey, context), Plaintext: dataKey.toString('base64'), KeyId: arn });
      }
      case 'Decrypt': {
        const blob = Buffer.from(String(json.CiphertextBlob ?? ''), 'base64');
        const arn = this.blobKeyArn(json.CiphertextBlob);
        const material = arn ? this.material.get(arn) : undefined;
        if (!arn || !material || blob.length < 1 + blob[0]! + IV + TAG) return error('InvalidCiphertextException', '');
        if (json.KeyId !== undefined && this.keyArnOf(json.KeyId) !== arn) return error('IncorrectKeyException', 'The key ID in the request does not identify a CMK that can perform this operation.');
        const body = blob.subarray(1 + blob[0]!);
        const decipher = createDecipheriv('aes-256-gcm', material, body.subarray(0, IV));
        decipher.setAAD(contextBytes(arn, context));
        decipher.setAuthTag(body.subarray(IV, IV + TAG));
        try {
          const plaintext = Buffer.concat([decipher.update(body.subarray(IV + TAG)), decipher.final()]);
          return ok({ Plaintext: plaintext.toString('base64'), KeyId: arn, EncryptionAlgorithm: 'SYMMETRIC_DEFAULT' });
        } catch {
          return error('InvalidCiphertextException', '');
        }
      }
      default:
        return error('UnsupportedOperationException', `${operation} is not modelled here`);
    }
  }

  private seal(arn: string, plaintext: Buffer, context: Record<string, string>): string {
    const iv = randomBytes(IV);
    const cipher = createCipheriv('aes-256-gcm', this.material.get(arn)!, iv);
    cipher.setAAD(contextBytes(arn, context));
    const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
    const name = Buffer.from(arn, 'utf8');
    return Buffer.concat([Buffer.from([name.length]), name, iv, cipher.getAuthTag(), ciphertext]).toString('base64');
  }
}

const contextBytes = (arn: string, context: Record<string, string>): Buffer =>
  Buffer.from(JSON.stringify([arn, Object.keys(context).sort().map((k) => [k, context[k]])]), 'utf8');
const ok = (body: Record<string, unknown>): KmsAnswer => ({ status: 200, body });
const error = (type: string, message: string): KmsAnswer => ({ status: 400, body: { __type: type, message } });
const notFound = (keyId: unknown): KmsAnswer => error('NotFoundException', `Key '${String(keyId)}' does not exist`);
