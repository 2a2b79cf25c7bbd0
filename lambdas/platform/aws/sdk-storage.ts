import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Agent } from 'node:http';
import type { BuildMiddleware, MetadataBearer } from '@smithy/types';
import type { Storage } from '../storage-port';
import { lazyModule } from './lazy-module';

// S3 loaded at first use, in a chunk of its own (lib/bundle-options.ts), as each S3 command is
// (../blob.ts): a function that never touches the files carries no S3 client.
const clientSdk = /* @__PURE__ */ lazyModule(() => import('./sdk/s3-client'));

/** Where a root's stores are and how it signs for them; what it leaves out is the SDK's own configuration (the environment). */
export interface SdkStorageOptions {
  region?: string;
  /** Sent to both stores; the SDK's credential chain when absent. */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  /** The origin signed into links handed to clients, when it is not `s3Endpoint` (another machine reaches the store there). */
  linkEndpoint?: string;
  /** Path-style bucket addressing (s3rver, LocalStack). */
  forcePathStyle: boolean;
  /**
   * A store that checks a request's signature but never its body (the embedded store, LocalStack):
   * the body is sent unhashed (UNSIGNED-PAYLOAD, no SHA-256 of it) and without the optional CRC32
   * checksum, two passes over every object put that such a store would not read. Never for S3.
   */
  bodyUnchecked?: boolean;
  /** How the file store's client connects to `s3Endpoint` (the embedded store in the same process: in memory); a socket when absent. */
  s3Agent?: Agent;
}

/**
 * The table and file store reached through the AWS SDK, each client created at its first use and
 * kept: the AWS root's (no endpoint: the SDK's), the local runtime's and the admin CLI's (the
 * embedded or external stores, with their signing secret).
 */
export function sdkStorage(options: SdkStorageOptions): Storage {
  const common = { ...(options.region ? { region: options.region } : {}), ...(options.credentials ? { credentials: options.credentials } : {}) };
  let table: DynamoDBDocumentClient | null = null;
  const s3 = lazyModule(async () => {
    const { S3Client } = await clientSdk();
    const s3Options = { ...common, forcePathStyle: options.forcePathStyle };
    const main = new S3Client({
      ...s3Options,
      ...(options.s3Endpoint ? { endpoint: options.s3Endpoint } : {}),
      ...(options.bodyUnchecked ? { requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
      ...(options.s3Agent ? { requestHandler: { httpAgent: options.s3Agent } } : {}),
    });
    if (options.bodyUnchecked) main.middlewareStack.add(unsignedPayload, { step: 'build', priority: 'low', name: 'unsignedPayload' });
    const link = options.linkEndpoint && options.linkEndpoint !== options.s3Endpoint ? new S3Client({ ...s3Options, endpoint: options.linkEndpoint }) : null;
    return { main, link };
  });
  return {
    table: () =>
      (table ??= DynamoDBDocumentClient.from(new DynamoDBClient({ ...common, ...(options.dynamoEndpoint ? { endpoint: options.dynamoEndpoint } : {}) }), {
        marshallOptions: { removeUndefinedValues: true },
      })),
    blob: async () => (await s3()).main,
    linkSigner: async () => {
      const { main, link } = await s3();
      return link ?? main;
    },
  };
}

/**
 * Declares the body unsigned before the request is signed: the signer takes a declared
 * x-amz-content-sha256 as the payload's hash instead of hashing the body (presigned links already
 * declare it so).
 */
const unsignedPayload: BuildMiddleware<object, MetadataBearer> = (next) => (args) => {
  const request = args.request as { headers?: Record<string, string> };
  if (request.headers) request.headers['x-amz-content-sha256'] = 'UNSIGNED-PAYLOAD';
  return next(args);
};
