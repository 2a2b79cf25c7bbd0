import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/** Names the local runtime gives the resources the CDK stack would create. */
export const LOCAL_RESOURCES = {
  table: 'phone-validation',
  buckets: { files: 'phone-validation-files', screenshots: 'phone-validation-screenshots' },
};

export interface RuntimeState {
  pid: number;
  apiUrl: string;
  dynamoEndpoint: string;
  s3Endpoint: string;
}

export const dataDirFromEnv = (): string => resolve(process.env.DATA_DIR ?? '.data');

/**
 * Points this process's SDK clients at the embedded (or LocalStack) endpoints. Set before any
 * client is created; clients are created lazily.
 */
export function applyLocalEnvironment(endpoints: { dynamo: string; s3: string }): void {
  process.env.AWS_REGION ??= 'us-east-1';
  // s3rver accepts exactly these credentials (LocalStack accepts any). Whatever the shell has is
  // replaced so that real credentials are never sent, even to loopback.
  process.env.AWS_ACCESS_KEY_ID = 'S3RVER';
  process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
  delete process.env.AWS_SESSION_TOKEN;
  delete process.env.AWS_PROFILE;
  process.env.AWS_ENDPOINT_URL_DYNAMODB = endpoints.dynamo;
  process.env.AWS_ENDPOINT_URL_S3 = endpoints.s3;
  process.env.S3_FORCE_PATH_STYLE = 'true';
  process.env.TABLE_NAME ??= LOCAL_RESOURCES.table;
  process.env.FILES_BUCKET ??= LOCAL_RESOURCES.buckets.files;
  process.env.SCREENSHOTS_BUCKET ??= LOCAL_RESOURCES.buckets.screenshots;
  process.env.CLASSIFICATION_PROVIDER ??= 'simulator';
  process.env.DEPLOYMENT ??= 'local';
}

export function writeRuntimeState(dataDir: string, state: RuntimeState): void {
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify(state, null, 2));
}

export function readRuntimeState(dataDir: string): RuntimeState | null {
  try {
    const state = JSON.parse(readFileSync(join(dataDir, 'runtime.json'), 'utf8')) as RuntimeState;
    process.kill(state.pid, 0); // throws when that process is gone
    return state;
  } catch {
    return null;
  }
}

export function clearRuntimeState(dataDir: string): void {
  rmSync(join(dataDir, 'runtime.json'), { force: true });
}
