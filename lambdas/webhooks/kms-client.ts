import { KMSClient } from '@aws-sdk/client-kms';

// One KMS client per container, created at first use (a function that never seals or opens a
// secret never builds it). The endpoint comes from the SDK's own configuration, as for the other
// clients (AWS_ENDPOINT_URL in the deployed-artifact harness).
let client: KMSClient | null = null;

export const kms = (): KMSClient => (client ??= new KMSClient({}));
