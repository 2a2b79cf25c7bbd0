import { reloadConfig } from '../../../lambdas/platform/config';
import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { signedDownloadUrl } from '../../../lambdas/uploads/download-signer';
import { manualClock } from '../../support/manual-clock';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clock = manualClock();

afterEach(() => {
  clock.set(null);
  // The signing key is read again once the configuration is (reloadConfig below).
  for (const k of ['DOWNLOADS_CLOUDFRONT_DOMAIN', 'DOWNLOADS_CLOUDFRONT_KEY_ID', 'DOWNLOADS_SIGNING_PRIVATE_KEY']) delete process.env[k];
  reloadConfig();
});

// CloudFront's URL-safe base64.
const fromCloudFrontBase64 = (s: string) => Buffer.from(s.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/'), 'base64');

describe('download links through CloudFront', () => {
  it('signs a canned policy that expires exactly one hour from now, verifiable with the public key', () => clock.run(async () => {
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    process.env.DOWNLOADS_CLOUDFRONT_KEY_ID = 'K2JCJMDEHXQW5F';
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    reloadConfig();
    const now = 1_800_000_000_000;
    clock.set(() => now);
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
  }));

  it('carries the RFC 6266 file name as response-content-disposition, inside what is signed', async () => {
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    process.env.DOWNLOADS_CLOUDFRONT_KEY_ID = 'K2JCJMDEHXQW5F';
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    reloadConfig();
    const raw = await signedDownloadUrl('uploads/org/id/original.csv', 3600, 'Liste été\r\n "2026" ✓.csv');
    expect(raw).toMatch(/\?response-content-disposition=attachment%3B%20filename%3D%22Liste%20ete%20/); // %20, not +
    const link = new URL(raw);
    const disposition = link.searchParams.get('response-content-disposition');
    expect(disposition).toBe(`attachment; filename="Liste ete _2026_ _.csv"; filename*=UTF-8''Liste%20%C3%A9t%C3%A9%20%222026%22%20%E2%9C%93.csv`);
    // The canned policy's resource is the URL with its own query string: changing the name breaks it.
    const expires = Number(link.searchParams.get('Expires'));
    // What CloudFront checks: the URL as requested, without its own three parameters.
    const resource = raw.slice(0, raw.indexOf('&Expires='));
    const policy = (r: string) => JSON.stringify({ Statement: [{ Resource: r, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }] });
    const signature = fromCloudFrontBase64(link.searchParams.get('Signature')!);
    expect(verify('RSA-SHA1', Buffer.from(policy(resource)), publicKey, signature)).toBe(true);
    const swapped = resource.replace(/response-content-disposition=.*$/, `response-content-disposition=${encodeURIComponent('attachment; filename="evil.exe"')}`);
    expect(verify('RSA-SHA1', Buffer.from(policy(swapped)), publicKey, signature)).toBe(false);
  });

  it('refuses to sign without a key id', async () => {
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    reloadConfig();
    await expect(signedDownloadUrl('k', 3600)).rejects.toThrow(/DOWNLOADS_CLOUDFRONT_KEY_ID/);
  });
});
