import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DecryptCommand, EncryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { localSecretSealer, localSecretsKey, SECRETS_KEY_FILE } from '../../../local/local-secret-sealer';
import { kmsSecretSealer } from '../../../lambdas/webhooks/kms-sealer';
import { kmsSecretOpener } from '../../../lambdas/webhooks/kms-opener';
import { callbackSecretContext, openStored, SecretUnopenable, StoredSecretSchema, webhookSecretContext, type Sealed } from '../../../lambdas/webhooks/secret-sealer';
import { KmsFake } from '../../deployed/kms-fake';
import { tempDir } from '../../support/temp-dirs';

const SECRET = 'a3f1c9e07b5d2846a3f1c9e07b5d2846a3f1c9e07b5d2846a3f1c9e07b5d2846';
const ORG = 'org-1';
const WEBHOOK = '0b9e6a52-3c1f-4f7e-9a55-2d7c4f1e8b10';

describe('local sealer (AES-256-GCM, key in the data folder)', () => {
  const sealer = localSecretSealer(localSecretsKey(null));
  const context = webhookSecretContext(ORG, WEBHOOK);

  it('opens what it sealed, under the same context; the stored form holds no plaintext and differs each time', async () => {
    const sealed = await sealer.seal(SECRET, context);
    expect(sealed).toMatchObject({ v: 1, alg: 'local-aes-256-gcm' });
    expect(JSON.stringify(sealed)).not.toContain(SECRET);
    expect(Buffer.from(sealed.ct, 'base64').toString('latin1')).not.toContain(SECRET.slice(0, 16));
    expect((await sealer.seal(SECRET, context)).ct).not.toBe(sealed.ct);
    expect(await sealer.open(sealed, context)).toBe(SECRET);
    expect(await sealer.open(sealed, { webhook_id: WEBHOOK, organization_id: ORG })).toBe(SECRET); // key order is not meaning
  });

  it('refuses a tampered value: any flipped byte (IV, tag or ciphertext)', async () => {
    const sealed = await sealer.seal(SECRET, context);
    const bytes = Buffer.from(sealed.ct, 'base64');
    for (const at of [0, 12, 28, bytes.length - 1]) {
      const altered = Buffer.from(bytes);
      altered[at] = altered[at]! ^ 0x01;
      await expect(sealer.open({ ...sealed, ct: altered.toString('base64') }, context)).rejects.toBeInstanceOf(SecretUnopenable);
    }
    await expect(sealer.open({ ...sealed, ct: bytes.subarray(0, 20).toString('base64') }, context)).rejects.toBeInstanceOf(SecretUnopenable);
  });

  it('refuses the value under another organization, endpoint, callback URL or purpose', async () => {
    const sealed = await sealer.seal(SECRET, context);
    for (const other of [webhookSecretContext('org-2', WEBHOOK), webhookSecretContext(ORG, 'another'), callbackSecretContext(ORG, 'https://example.com/cb'), {}]) {
      await expect(sealer.open(sealed, other)).rejects.toBeInstanceOf(SecretUnopenable);
    }
    const callback = await sealer.seal(SECRET, callbackSecretContext(ORG, 'https://example.com/cb'));
    await expect(sealer.open(callback, callbackSecretContext(ORG, 'https://attacker.example/cb'))).rejects.toBeInstanceOf(SecretUnopenable);
  });

  it('refuses a value sealed by another installation (another key) and a KMS-sealed value', async () => {
    const sealed = await localSecretSealer(localSecretsKey(null)).seal(SECRET, context);
    await expect(sealer.open(sealed, context)).rejects.toBeInstanceOf(SecretUnopenable);
    await expect(sealer.open({ v: 1, alg: 'kms', ct: sealed.ct }, context)).rejects.toThrow(/sealed with kms/);
  });

  it('keeps its key in the data folder: created at first start with mode 0600, the same on the next start', async () => {
    const dir = tempDir('secrets-key-');
    const first = localSecretsKey(dir);
    expect(statSync(join(dir, SECRETS_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(localSecretsKey(dir).equals(first)).toBe(true);
    const sealed = await localSecretSealer(first).seal(SECRET, context);
    expect(await localSecretSealer(localSecretsKey(dir)).open(sealed, context)).toBe(SECRET);
    expect(readFileSync(join(dir, SECRETS_KEY_FILE), 'utf8').trim()).toMatch(/^[0-9a-f]{64}$/);
    writeFileSync(join(dir, SECRETS_KEY_FILE), 'not-a-key-not-a-key-not-a-key-not-a-key\n');
    expect(() => localSecretsKey(dir)).toThrow(/64 hex characters/);
  });

  it('stored secrets: a plaintext string (items from before sealing) passes through, a sealed map opens; other shapes are refused', async () => {
    const sealed = await sealer.seal(SECRET, context);
    expect(await openStored({ opener: sealer }, SECRET, context)).toBe(SECRET);
    expect(await openStored({ opener: sealer }, sealed, context)).toBe(SECRET);
    expect(StoredSecretSchema.safeParse(SECRET).success).toBe(true);
    expect(StoredSecretSchema.safeParse(sealed).success).toBe(true);
    expect(StoredSecretSchema.safeParse({ ...sealed, v: 2 }).success).toBe(false);
    expect(StoredSecretSchema.safeParse({ ...sealed, alg: 'rot13' }).success).toBe(false);
  });
});

describe('KMS adapters (aws-sdk-client-mock)', () => {
  const kms = mockClient(KMSClient);
  const KEY = 'arn:aws:kms:us-east-1:111111111111:key/1234abcd-12ab-34cd-56ef-1234567890ab';
  const context = callbackSecretContext(ORG, 'https://example.com/cb');
  beforeEach(() => kms.reset());
  // The mock replaces every KMSClient's send; the fake below needs the real one.
  afterAll(() => kms.restore());

  it('seals with Encrypt under the configured key, the context as encryption context', async () => {
    kms.on(EncryptCommand).resolves({ CiphertextBlob: Buffer.from('blob-bytes'), KeyId: KEY });
    const sealed = await kmsSecretSealer(() => KEY).seal(SECRET, context);
    expect(sealed).toEqual({ v: 1, alg: 'kms', ct: Buffer.from('blob-bytes').toString('base64') });
    const input = kms.commandCalls(EncryptCommand)[0]!.args[0].input;
    expect(input.KeyId).toBe(KEY);
    expect(input.EncryptionContext).toEqual({ organization_id: ORG, callback_url: 'https://example.com/cb' });
    expect(Buffer.from(input.Plaintext!).toString('utf8')).toBe(SECRET);
    expect(kms.commandCalls(GenerateDataKeyCommand)).toHaveLength(0);
  });

  it('opens with Decrypt naming the key and the same context', async () => {
    kms.on(DecryptCommand).resolves({ Plaintext: Buffer.from(SECRET), KeyId: KEY });
    const sealed: Sealed = { v: 1, alg: 'kms', ct: Buffer.from('blob-bytes').toString('base64') };
    expect(await kmsSecretOpener(() => KEY).open(sealed, context)).toBe(SECRET);
    const input = kms.commandCalls(DecryptCommand)[0]!.args[0].input;
    expect(input).toMatchObject({ KeyId: KEY, EncryptionContext: { organization_id: ORG, callback_url: 'https://example.com/cb' } });
    expect(Buffer.from(input.CiphertextBlob!).toString('utf8')).toBe('blob-bytes');
  });

  it('a blob KMS will never open is SecretUnopenable; throttling and outages propagate as they are (retried)', async () => {
    const sealed: Sealed = { v: 1, alg: 'kms', ct: 'YmxvYg==' };
    const opener = kmsSecretOpener(() => KEY);
    kms.on(DecryptCommand).rejects(Object.assign(new Error(''), { name: 'InvalidCiphertextException' }));
    await expect(opener.open(sealed, context)).rejects.toBeInstanceOf(SecretUnopenable);
    kms.on(DecryptCommand).rejects(Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' }));
    const thrown = await opener.open(sealed, context).catch((e: unknown) => e);
    expect(thrown).not.toBeInstanceOf(SecretUnopenable);
    expect((thrown as Error).name).toBe('ThrottlingException');
    kms.resetHistory();
    await expect(opener.open({ ...sealed, alg: 'local-aes-256-gcm' }, context)).rejects.toBeInstanceOf(SecretUnopenable);
    expect(kms.commandCalls(DecryptCommand)).toHaveLength(0);
  });
});

describe('the deployed harness KMS fake, through the real SDK client', () => {
  const KEY = 'arn:aws:kms:us-east-1:111111111111:key/0b9e6a52-3c1f-4f7e-9a55-2d7c4f1e8b10';
  const fake = new KmsFake([KEY]);
  let server: Server;
  let client: KMSClient;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const target = String(req.headers['x-amz-target'] ?? '');
        expect(target.startsWith('TrentService.')).toBe(true);
        const answer = fake.handle(target.split('.').pop()!, JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>);
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    client = new KMSClient({ endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, region: 'us-east-1', credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'secret' } });
  });
  afterAll(() => {
    client.destroy();
    server.close();
  });

  it('Encrypt, Decrypt and GenerateDataKey round-trip; a wrong context, another key id or an altered blob are refused as KMS does', async () => {
    const ctx = { organization_id: ORG, webhook_id: WEBHOOK };
    const enc = await client.send(new EncryptCommand({ KeyId: KEY, Plaintext: Buffer.from(SECRET), EncryptionContext: ctx }));
    const dec = await client.send(new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: ctx, KeyId: KEY }));
    expect(Buffer.from(dec.Plaintext!).toString()).toBe(SECRET);
    await expect(client.send(new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: { ...ctx, organization_id: 'org-2' } }))).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(client.send(new DecryptCommand({ CiphertextBlob: enc.CiphertextBlob, EncryptionContext: ctx, KeyId: 'arn:aws:kms:us-east-1:111111111111:key/other' }))).rejects.toMatchObject({ name: 'IncorrectKeyException' });
    const altered = Buffer.from(enc.CiphertextBlob!);
    altered[altered.length - 1] = altered[altered.length - 1]! ^ 1;
    await expect(client.send(new DecryptCommand({ CiphertextBlob: altered, EncryptionContext: ctx }))).rejects.toMatchObject({ name: 'InvalidCiphertextException' });
    await expect(client.send(new EncryptCommand({ KeyId: 'alias/unknown', Plaintext: Buffer.from('x') }))).rejects.toMatchObject({ name: 'NotFoundException' });
    const dataKey = await client.send(new GenerateDataKeyCommand({ KeyId: KEY, KeySpec: 'AES_256', EncryptionContext: ctx }));
    expect(dataKey.Plaintext).toHaveLength(32);
    const again = await client.send(new DecryptCommand({ CiphertextBlob: dataKey.CiphertextBlob, EncryptionContext: ctx }));
    expect(Buffer.from(again.Plaintext!).equals(Buffer.from(dataKey.Plaintext!))).toBe(true);
  });
});
