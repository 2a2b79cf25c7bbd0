import { reloadConfig } from '../../../lambdas/platform/config';
import { generateKeyPairSync, verify } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { s3LinkSeconds, signedDownloadLink, signedDownloadUrl } from '../../../lambdas/uploads/download-signer';
import { manualClock } from '../../support/manual-clock';
import { publicKeyFingerprint } from '../../../lambdas/platform/cloudfront-key-ids';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const clock = manualClock();

// A role session as Lambda's environment would hold it, with the expiry the SDK reads from the environment.
const FAKE_SESSION = {
  AWS_ACCESS_KEY_ID: 'ASIAFAKEFAKEFAKEFAKE',
  AWS_SECRET_ACCESS_KEY: 'fake-secret-fake-secret-fake-secret-00000',
  AWS_SESSION_TOKEN: 'fake-session-token',
  AWS_CREDENTIAL_EXPIRATION: '',
  AWS_REGION: 'us-east-1',
  FILES_BUCKET: 'files-bucket',
};
const before = Object.fromEntries(Object.keys(FAKE_SESSION).map((k) => [k, process.env[k]]));

afterEach(() => {
  clock.set(null);
  // The signing key is read again once the configuration is (reloadConfig below).
  for (const k of ['DOWNLOADS_CLOUDFRONT_DOMAIN', 'DOWNLOADS_CLOUDFRONT_KEY_ID', 'DOWNLOADS_CLOUDFRONT_KEY_IDS', 'DOWNLOADS_SIGNING_PRIVATE_KEY']) delete process.env[k];
  for (const [k, v] of Object.entries(before)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
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
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    reloadConfig();
    await expect(signedDownloadUrl('k', 3600)).rejects.toThrow(/neither DOWNLOADS_CLOUDFRONT_KEY_IDS nor DOWNLOADS_CLOUDFRONT_KEY_ID/);
  });

  it('with two keys in the group (a rotation), signs with the id of the private key it holds, and refuses a key of neither', async () => {
    const other = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const pemOf = (key: typeof publicKey) => key.export({ type: 'spki', format: 'pem' }).toString();
    process.env.DOWNLOADS_CLOUDFRONT_DOMAIN = 'd111111abcdef8.cloudfront.net';
    // As the stack writes it (lib/downloads-construct.ts): the old key and the new one.
    process.env.DOWNLOADS_CLOUDFRONT_KEY_IDS = `KOLD=${publicKeyFingerprint(pemOf(publicKey))},KNEW=${publicKeyFingerprint(pemOf(other.publicKey))}`;
    for (const [key, id, pub] of [[privateKey, 'KOLD', publicKey], [other.privateKey, 'KNEW', other.publicKey]] as const) {
      process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = key.export({ type: 'pkcs8', format: 'pem' }).toString();
      reloadConfig();
      const raw = await signedDownloadUrl('uploads/o/i/f.csv', 3600);
      const link = new URL(raw);
      expect(link.searchParams.get('Key-Pair-Id')).toBe(id);
      const policy = JSON.stringify({ Statement: [{ Resource: raw.slice(0, raw.indexOf('?')), Condition: { DateLessThan: { 'AWS:EpochTime': Number(link.searchParams.get('Expires')) } } }] });
      expect(verify('RSA-SHA1', Buffer.from(policy), pub, fromCloudFrontBase64(link.searchParams.get('Signature')!))).toBe(true);
    }
    process.env.DOWNLOADS_SIGNING_PRIVATE_KEY = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    reloadConfig();
    await expect(signedDownloadUrl('k', 3600)).rejects.toThrow(/matches none of the key group's public keys/);
  });
});

describe('S3 presigned links (no distribution)', () => {
  const session = (expiration: string | undefined) => {
    Object.assign(process.env, FAKE_SESSION, { AWS_CREDENTIAL_EXPIRATION: expiration ?? '' });
    if (expiration === undefined) delete process.env.AWS_CREDENTIAL_EXPIRATION;
    reloadConfig();
  };

  it('promise the hour when the signing session outlives it, and the URL says the same', async () => {
    session(new Date(Date.now() + 3 * 3600_000).toISOString());
    const before = Math.floor(Date.now() / 1000);
    const link = await signedDownloadLink('uploads/org/id/original.csv', 3600, 'a.csv');
    expect(link.expiresAt - before).toBeGreaterThanOrEqual(3600);
    expect(link.expiresAt - before).toBeLessThanOrEqual(3601);
    expect(new URL(link.url).searchParams.get('X-Amz-Expires')).toBe('3600');
    expect(new URL(link.url).searchParams.get('X-Amz-Security-Token')).toBe('fake-session-token');
  });

  it('promise only what the session has left when it expires within the hour: expires_at and X-Amz-Expires both', async () => {
    const expiration = new Date(Date.now() + 20 * 60_000);
    session(expiration.toISOString());
    const link = await signedDownloadLink('uploads/org/id/original.csv', 3600);
    expect(Math.abs(link.expiresAt - Math.floor(expiration.getTime() / 1000))).toBeLessThanOrEqual(1);
    const amzExpires = Number(new URL(link.url).searchParams.get('X-Amz-Expires'));
    expect(amzExpires).toBeGreaterThan(1190);
    expect(amzExpires).toBeLessThanOrEqual(1200);
  });

  it('keep the hour with credentials that name no expiry (long-term keys, the local store)', async () => {
    session(undefined);
    const link = await signedDownloadLink('k', 3600);
    expect(new URL(link.url).searchParams.get('X-Amz-Expires')).toBe('3600');
  });

  it('are refused when the session is about to end rather than promising a link that dies at once', async () => {
    session(new Date(Date.now() + 30_000).toISOString());
    await expect(signedDownloadLink('k', 3600)).rejects.toThrow(/expire in \d+ s/);
  });

  it('cap by a plain rule', () => {
    expect(s3LinkSeconds(3600, 1000, undefined)).toBe(3600);
    expect(s3LinkSeconds(3600, 1000, new Date((1000 + 7200) * 1000))).toBe(3600);
    expect(s3LinkSeconds(3600, 1000, new Date((1000 + 600) * 1000 + 999))).toBe(600);
    expect(s3LinkSeconds(3600, 1000, new Date((1000 + 60) * 1000))).toBe(60);
    expect(() => s3LinkSeconds(3600, 1000, new Date((1000 + 59) * 1000))).toThrow(/59 s/);
    expect(() => s3LinkSeconds(3600, 1000, new Date(0))).toThrow(/too soon/);
  });
});
