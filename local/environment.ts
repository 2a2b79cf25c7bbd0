import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { SigningSecret } from './sigv4';

/** Names the local runtime gives the resources the CDK stack would create. */
export const LOCAL_RESOURCES = {
  table: 'phone-validation',
  buckets: { files: 'phone-validation-files', screenshots: 'phone-validation-screenshots' },
};

export const dataDirFromEnv = (): string => resolve(process.env.DATA_DIR ?? '.data');

/**
 * Points this process's SDK clients at the embedded (or LocalStack) endpoints. Set before any
 * client is created; clients are created lazily.
 */
export function applyLocalEnvironment(endpoints: { dynamo: string; s3: string }, credentials: SigningSecret = EXTERNAL_CREDENTIALS, linkEndpoint?: string): void {
  process.env.AWS_REGION ??= 'us-east-1';
  // The embedded store checks signatures with its own secret (LocalStack accepts any). Whatever
  // the shell has is replaced so that real credentials are never sent, even to loopback.
  process.env.AWS_ACCESS_KEY_ID = credentials.accessKeyId;
  process.env.AWS_SECRET_ACCESS_KEY = credentials.secretAccessKey;
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamo;
  process.env.AWS_ENDPOINT_URL_S3 = endpoints.s3;
  // Links handed to clients are signed for this origin (lambdas/platform/blob.ts).
  if (linkEndpoint && linkEndpoint !== endpoints.s3) process.env.S3_LINK_ENDPOINT = linkEndpoint;
  else delete process.env.S3_LINK_ENDPOINT;
  process.env.S3_FORCE_PATH_STYLE = 'true';
  process.env.TABLE_NAME ??= LOCAL_RESOURCES.table;
  process.env.FILES_BUCKET ??= LOCAL_RESOURCES.buckets.files;
  process.env.SCREENSHOTS_BUCKET ??= LOCAL_RESOURCES.buckets.screenshots;
  process.env.CLASSIFICATION_PROVIDER ??= 'simulator';
  process.env.DEPLOYMENT ??= 'local';
}

/** What an external endpoint (LocalStack) is sent: it accepts any credentials. */
export const EXTERNAL_CREDENTIALS: SigningSecret = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * The embedded store's signing secret: random, created on first use and kept in the data folder
 * (readable by its owner only), so links signed before a restart stay valid and nobody without
 * the folder can sign a request. In memory when there is no data folder (tests). The access key id
 * stays s3rver's own, which s3rver requires.
 */
export function localStoreSecret(dataDir: string | null): SigningSecret {
  const fresh = () => randomBytes(32).toString('base64url');
  if (!dataDir) return { accessKeyId: 'S3RVER', secretAccessKey: fresh() };
  const path = join(dataDir, 'store-secret');
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (/^[A-Za-z0-9_-]{43}$/.test(existing)) return { accessKeyId: 'S3RVER', secretAccessKey: existing };
  } catch {
    // not created yet
  }
  mkdirSync(dataDir, { recursive: true });
  const secret = fresh();
  // Written whole or not at all: a kill -9 mid-write must not leave a half secret.
  writeFileSync(`${path}.tmp`, secret, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
  return { accessKeyId: 'S3RVER', secretAccessKey: secret };
}

/**
 * Removes the `runtime.json` earlier versions wrote (a pid they trusted to tell whether an instance
 * ran): the instance lock (local/instance-lock.ts) is what tells now, and the file would only mislead.
 */
export function removeLegacyRuntimeFile(dataDir: string): void {
  rmSync(join(dataDir, 'runtime.json'), { force: true });
}
