import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import type { Agent } from 'node:http';
import { join, resolve } from 'node:path';
import type { SigningSecret } from './sigv4';
import { sdkStorage } from '../lambdas/platform/aws/sdk-storage';
import { logger } from '../lambdas/platform/logger';
import type { Storage } from '../lambdas/platform/storage';

/** Names the local runtime gives the resources the CDK stack would create. */
export const LOCAL_RESOURCES = {
  table: 'phone-validation',
  buckets: { files: 'phone-validation-files', screenshots: 'phone-validation-screenshots' },
};

export const dataDirFromEnv = (): string => resolve(process.env.DATA_DIR ?? '.data');

/**
 * What the local runtime adds to the environment (lambdas/platform/config.ts, configureRoot): the
 * resources' local names, the simulator, DEPLOYMENT=local and, with a data folder, the cursor key
 * kept there; each only where the environment sets nothing. The environment itself is not written.
 */
export function localDefaults(cursorSecret?: string): Record<string, string> {
  return {
    TABLE_NAME: LOCAL_RESOURCES.table,
    FILES_BUCKET: LOCAL_RESOURCES.buckets.files,
    SCREENSHOTS_BUCKET: LOCAL_RESOURCES.buckets.screenshots,
    CLASSIFICATION_PROVIDER: 'simulator',
    DEPLOYMENT: 'local',
    ...(cursorSecret ? { CURSOR_SECRET: cursorSecret } : {}),
  };
}

/**
 * The storage of a local root (the runtime, the admin CLI): the embedded (or LocalStack) endpoints,
 * signed with the store's own secret (LocalStack accepts any). The shell's credentials are never
 * used, so real ones are never sent, even to loopback. Links handed to clients are signed for
 * `linkEndpoint` when given (FILES_PUBLIC_URL: another machine reaches the store there). Bodies
 * go unhashed and without checksums: neither store checks them (sigv4.ts takes the declared hash).
 * `s3Agent`: the embedded store's, when it runs in this process (its connections in memory).
 */
export function localStorage(endpoints: { dynamo: string; s3: string }, credentials: SigningSecret = EXTERNAL_CREDENTIALS, linkEndpoint?: string, s3Agent?: Agent): Storage {
  return sdkStorage({ region: localRegion(), credentials, dynamoEndpoint: endpoints.dynamo, s3Endpoint: endpoints.s3, linkEndpoint, forcePathStyle: true, bodyUnchecked: true, s3Agent });
}

/**
 * The environment a process started beside a local root needs to reach its stores as the AWS root
 * does (the SDK's endpoint variables and the store's secret) with its resources' names: what a test
 * or the bench passes to a ClassifyChunk child. The root's own process is never given it.
 */
export function storeEnvironment(endpoints: { dynamo: string; s3: string }, credentials: SigningSecret, names: { TABLE_NAME?: string; FILES_BUCKET?: string; SCREENSHOTS_BUCKET?: string; DEPLOYMENT?: string }, linkEndpoint?: string): Record<string, string> {
  const defined = Object.fromEntries(Object.entries(names).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  return {
    AWS_REGION: localRegion(),
    AWS_ACCESS_KEY_ID: credentials.accessKeyId,
    AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    AWS_SESSION_TOKEN: '',
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamo,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    S3_FORCE_PATH_STYLE: 'true',
    S3_LINK_ENDPOINT: linkEndpoint && linkEndpoint !== endpoints.s3 ? linkEndpoint : '',
    ...defined,
  };
}

/** The region the local stores are signed for: AWS_REGION, else us-east-1 (any region works locally). */
export const localRegion = (): string => process.env.AWS_REGION || 'us-east-1';

/** What an external endpoint (LocalStack) is sent: it accepts any credentials. */
export const EXTERNAL_CREDENTIALS: SigningSecret = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

/**
 * The embedded store's signing secret: random, created on first use and kept in the data folder
 * (readable by its owner only), so links signed before a restart stay valid and nobody without
 * the folder can sign a request. In memory when there is no data folder (tests). The access key id
 * stays s3rver's own, which s3rver requires. A file that holds no secret (empty, or damaged) is
 * replaced with a WARN saying so: the secret only signs requests, so nothing stored becomes
 * unreadable; the links handed out before stop working.
 */
export function localStoreSecret(dataDir: string | null): SigningSecret {
  const fresh = () => randomBytes(32).toString('base64url');
  if (!dataDir) return { accessKeyId: 'S3RVER', secretAccessKey: fresh() };
  const path = join(dataDir, 'store-secret');
  let found: string | undefined;
  try {
    found = readFileSync(path, 'utf8').trim();
  } catch {
    // not created yet
  }
  if (found !== undefined && /^[A-Za-z0-9_-]{43}$/.test(found)) return { accessKeyId: 'S3RVER', secretAccessKey: found };
  mkdirSync(dataDir, { recursive: true });
  const secret = fresh();
  // Written whole or not at all: a kill -9 mid-write must not leave a half secret.
  writeFileSync(`${path}.tmp`, secret, { mode: 0o600 });
  renameSync(`${path}.tmp`, path);
  if (found !== undefined) {
    logger.warn(
      `${path} ${found === '' ? 'was empty' : 'held no store secret'}: a new secret was generated. It only signs requests to the embedded table and file store, so no data becomes unreadable; download and staging links handed out before this start stop working (403)`,
      { file: path },
    );
  }
  return { accessKeyId: 'S3RVER', secretAccessKey: secret };
}

/**
 * Removes the `runtime.json` earlier versions wrote (a pid they trusted to tell whether an instance
 * ran): the instance lock (local/instance-lock.ts) is what tells now, and the file would only mislead.
 */
export function removeLegacyRuntimeFile(dataDir: string): void {
  rmSync(join(dataDir, 'runtime.json'), { force: true });
}
