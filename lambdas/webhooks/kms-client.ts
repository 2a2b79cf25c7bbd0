import type { KMSClient } from '@aws-sdk/client-kms';
import { lazyModule } from '../platform/aws/lazy-module';

// One KMS client per container, created at first use (a function that never seals or opens a
// secret never builds it, nor loads the SDK's KMS module: a chunk of its own, lib/bundle-options.ts).
// The endpoint comes from the SDK's own configuration, as for the other clients (AWS_ENDPOINT_URL
// in the deployed-artifact harness).
export const kmsSdk = /* @__PURE__ */ lazyModule(() => import('@aws-sdk/client-kms'));

let client: KMSClient | null = null;

export async function kms(): Promise<KMSClient> {
  const { KMSClient } = await kmsSdk();
  return (client ??= new KMSClient({}));
}
