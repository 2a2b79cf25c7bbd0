import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { getSignedUrl as cloudFrontSignedUrl } from '@aws-sdk/cloudfront-signer';
import { nowUnix } from '../platform/clock';
import { filesBucket, presignGet } from '../platform/blob';
import { attachmentDisposition } from './content-disposition';
import { config } from '../platform/config';
import { perConfig } from '../platform/per-config';

// Download links must stay valid for the whole promised hour. An S3 URL presigned with a Lambda
// role's temporary credentials dies with that session, which can be sooner; a CloudFront signed
// URL is signed with a key pair that outlives it. When a distribution is configured (the stack
// creates one when given a public key) links are CloudFront signed URLs; otherwise S3 presigned
// URLs (the local runtime, and stacks deployed without a key).

// Read once per configuration (a failed read is not kept: the next link tries again).
const loaded = /* @__PURE__ */ perConfig((): { privateKey: string | null } => ({ privateKey: null }));

async function signingKey(): Promise<string> {
  const slot = loaded();
  if (slot.privateKey) return slot.privateKey;
  const direct = config().DOWNLOADS_SIGNING_PRIVATE_KEY;
  if (direct) return (slot.privateKey = direct);
  const arn = config().DOWNLOADS_SIGNING_KEY_SECRET_ARN;
  if (!arn) throw new Error('DOWNLOADS_CLOUDFRONT_DOMAIN is set but neither DOWNLOADS_SIGNING_KEY_SECRET_ARN nor DOWNLOADS_SIGNING_PRIVATE_KEY is');
  const out = await new SecretsManagerClient({}).send(new GetSecretValueCommand({ SecretId: arn }));
  if (!out.SecretString?.includes('PRIVATE KEY')) throw new Error(`secret ${arn} does not hold a PEM private key yet: put the CloudFront key pair's private key in it`);
  return (slot.privateKey = out.SecretString);
}

/**
 * A GET link to a files-bucket object, valid `seconds` from now, saved as `filename` (RFC 6266).
 * Through CloudFront the disposition travels as S3's response-content-disposition parameter: it is
 * part of the signed URL, and the distribution forwards it to the origin, whose OAC-signed request
 * lets S3 honour it.
 */
export async function signedDownloadUrl(key: string, seconds: number, filename?: string): Promise<string> {
  const disposition = filename === undefined ? undefined : attachmentDisposition(filename);
  const domain = config().DOWNLOADS_CLOUDFRONT_DOMAIN;
  if (!domain) return presignGet(filesBucket(), key, seconds, disposition);
  const keyPairId = config().DOWNLOADS_CLOUDFRONT_KEY_ID;
  if (!keyPairId) throw new Error('DOWNLOADS_CLOUDFRONT_DOMAIN is set but DOWNLOADS_CLOUDFRONT_KEY_ID is not');
  // %20, never URLSearchParams' `+`: S3 reads the forwarded query with RFC 3986 decoding.
  const query = disposition ? `?response-content-disposition=${encodeURIComponent(disposition)}` : '';
  return cloudFrontSignedUrl({
    url: `https://${domain}/${key.split('/').map(encodeURIComponent).join('/')}${query}`,
    keyPairId,
    privateKey: await signingKey(),
    dateLessThan: new Date((nowUnix() + seconds) * 1000).toISOString(),
  });
}
