import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { resetSigningKey, signedDownloadUrl } from '../../../lambdas/uploads/download-signer';
import { setClock } from '../../../lambdas/platform/clock';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });

afterEach(() => {
  setClock(null);
  resetSigningKey();
  for (const k of ['DOWNLOADS_CLOUDFRONT_DOMAIN', 'DOWNLOADS_CLOUDFRONT_KEY_ID', 'DOWNLOADS_SIGNING_PRIVATE_KEY']) delete process.env[k];
});

// CloudFront's URL-safe base64.
const fromCloudFrontBase64 = (s: string) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

describe('download links through CloudFront', () => {
  it('signs a canned policy that expires exactly one hour from now, verifiable with the public key', async () => {
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    process.env.DOWNLOADS_CLOUDFRONT_KEY_ID = 'K2JCJMDEHXQW5F';
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    const now = 1_800_000_000_000;
    setClock(() => now);
    const link = new URL(await signedDownloadUrl('uploads/org/id/processed file.csv', 3600));
    expect(link.origin).toBe('https://d111111abcdef8.cloudfront.net');
    expect(link.pathname).toBe('/uploads/org/id/processed%20file.csv');
    const expires = Number(link.searchParams.get('Expires'));
    expect(expires).toBe(now / 1000 + 3600);
    expect(link.searchParams.get('Key-Pair-Id')).toBe('K2JCJMDEHXQW5F');
    const resource = `${link.origin}${link.pathname}`;
    const policy = JSON.stringify({ Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }] });
    expect(verify('RSA-SHA1', Buffer.from(policy), publicKey, fromCloudFrontBase64(link.searchParams.get('Signature')!))).toBe(true);
    // The same link for a later expiry would not verify: the expiry is signed.
    const tampered = policy.replace(String(expires), String(expires + 3600));
    expect(verify('RSA-SHA1', Buffer.from(tampered), publicKey, fromCloudFrontBase64(link.searchParams.get('Signature')!))).toBe(false);
  });

  it('refuses to sign without a key id', async () => {
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    await expect(signedDownloadUrl('k', 3600)).rejects.toThrow(/DOWNLOADS_CLOUDFRONT_KEY_ID/);
  });
});
