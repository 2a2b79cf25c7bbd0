import { nowUnix } from '../platform/clock';
import { filesBucket, linkSigner, presignGet } from '../platform/blob';
import { attachmentDisposition } from './content-disposition';
import { config } from '../platform/config';
import { perConfig } from '../platform/per-config';
import { lazyModule } from '../platform/aws/lazy-module';
import { readSecretString } from '../platform/aws/secrets';
import { keyIdForPrivateKey } from '../platform/cloudfront-key-ids';

/** The CloudFront signer, loaded at first use (S3 presigned links need none of it). */
const cloudFrontSigner = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/cloudfront-sign'));

// Download links must stay valid for the whole promised hour. An S3 URL presigned with a Lambda
// role's temporary credentials dies with that session, which can be sooner; a CloudFront signed
// URL is signed with a key pair that outlives it. When a distribution is configured (the stack
// creates one when given a public key) links are CloudFront signed URLs, every link of every
// function that hands them out (API, console, finalize, recovery); otherwise S3 presigned URLs
// (the local runtime, and stacks deployed without a key), whose promised expiry is capped at the
// signing credentials' own when they name one (docs/uploads.md).

// Read once per configuration (a failed read is not kept: the next link tries again).
const loaded = /* @__PURE__ */ perConfig((): { privateKey: string | null; keyPairId: string | null } => ({ privateKey: null, keyPairId: null }));

async function signingKey(): Promise<string> {
  const slot = loaded();
  if (slot.privateKey) return slot.privateKey;
  const direct = config().DOWNLOADS_SIGNING_PRIVATE_KEY;
  if (direct) return (slot.privateKey = direct);
  const arn = config().DOWNLOADS_SIGNING_KEY_SECRET_ARN;
  if (!arn) throw new Error('DOWNLOADS_CLOUDFRONT_DOMAIN is set but neither DOWNLOADS_SIGNING_KEY_SECRET_ARN nor DOWNLOADS_SIGNING_PRIVATE_KEY is');
  const secret = await readSecretString(arn);
  if (!secret?.includes('PRIVATE KEY')) throw new Error(`secret ${arn} does not hold a PEM private key yet: put the CloudFront key pair's private key in it`);
  return (slot.privateKey = secret);
}

/** The key id to sign with, worked out once per key read (deriving a public key on every link would be waste). */
function keyPairIdOf(privateKey: string): string {
  const slot = loaded();
  if (slot.privateKey === privateKey && slot.keyPairId) return slot.keyPairId;
  const id = keyPairIdFor(privateKey);
  if (slot.privateKey === privateKey) slot.keyPairId = id;
  return id;
}

/** The one listed for this private key (cloudfront-key-ids.ts), else the single one configured. */
function keyPairIdFor(privateKey: string): string {
  const { DOWNLOADS_CLOUDFRONT_KEY_IDS: listed, DOWNLOADS_CLOUDFRONT_KEY_ID: single } = config();
  if (listed) {
    const id = keyIdForPrivateKey(listed, privateKey);
    if (!id) throw new Error("the signing secret's private key matches none of the key group's public keys (DOWNLOADS_CLOUDFRONT_KEY_IDS): put the private key of a public key the stage names");
    return id;
  }
  if (!single) throw new Error('DOWNLOADS_CLOUDFRONT_DOMAIN is set but neither DOWNLOADS_CLOUDFRONT_KEY_IDS nor DOWNLOADS_CLOUDFRONT_KEY_ID is');
  return single;
}

/** A link, and when it stops working (Unix seconds): what the API promises as `expires_at`. */
export interface SignedLink {
  url: string;
  expiresAt: number;
}

/** Below this, a link is no use to anyone: refuse rather than promise it. */
const MIN_LINK_SECONDS = 60;

/**
 * How long an S3 link signed now stays valid: `seconds`, or less when the signing credentials
 * expire first (a SigV4 URL dies with the session that signed it). Credentials without an expiry
 * (long-term keys, the local store's) keep the whole `seconds`.
 */
export function s3LinkSeconds(seconds: number, nowUnixSeconds: number, credentialsExpiration: Date | undefined): number {
  if (!credentialsExpiration) return seconds;
  const left = Math.floor(credentialsExpiration.getTime() / 1000) - nowUnixSeconds;
  if (left < MIN_LINK_SECONDS) throw new Error(`the signing credentials expire in ${left} s: too soon to sign a download link`);
  return Math.min(seconds, left);
}

/**
 * A GET link to a files-bucket object, valid `seconds` from now (or until the S3 signing
 * credentials expire, if sooner; never in CloudFront mode), saved as `filename` (RFC 6266).
 * Through CloudFront the disposition travels as S3's response-content-disposition parameter: it is
 * part of the signed URL, and the distribution forwards it to the origin, whose OAC-signed request
 * lets S3 honour it.
 */
export async function signedDownloadLink(key: string, seconds: number, filename?: string): Promise<SignedLink> {
  const disposition = filename === undefined ? undefined : attachmentDisposition(filename);
  const now = nowUnix();
  const domain = config().DOWNLOADS_CLOUDFRONT_DOMAIN;
  if (!domain) {
    const credentials = await (await linkSigner()).config.credentials();
    const validFor = s3LinkSeconds(seconds, now, credentials.expiration);
    return { url: await presignGet(filesBucket(), key, validFor, disposition), expiresAt: now + validFor };
  }
  const privateKey = await signingKey();
  const keyPairId = keyPairIdOf(privateKey);
  // %20, never URLSearchParams' `+`: S3 reads the forwarded query with RFC 3986 decoding.
  const query = disposition ? `?response-content-disposition=${encodeURIComponent(disposition)}` : '';
  const { getSignedUrl: cloudFrontSignedUrl } = await cloudFrontSigner();
  const url = cloudFrontSignedUrl({
    url: `https://${domain}/${key.split('/').map(encodeURIComponent).join('/')}${query}`,
    keyPairId,
    privateKey,
    dateLessThan: new Date((now + seconds) * 1000).toISOString(),
  });
  return { url, expiresAt: now + seconds };
}

/** The URL of `signedDownloadLink` (webhook events carry links without their expiry). */
export async function signedDownloadUrl(key: string, seconds: number, filename?: string): Promise<string> {
  return (await signedDownloadLink(key, seconds, filename)).url;
}
