import type { KMSClient } from '@aws-sdk/client-kms';

// One KMS client per container, created at first use (a function that never seals or opens a
// secret never builds it, nor loads KMS: the sealer and the opener each load their one command
// from a chunk of their own, lib/bundle-options.ts). The endpoint comes from the SDK's own
// configuration, as for the other clients (AWS_ENDPOINT_URL in the deployed-artifact harness).
let client: KMSClient | null = null;

export function kms(KMS: new (config: object) => KMSClient): KMSClient {
  return (client ??= new KMS({}));
}
