// KMS Decrypt only, loaded on first use (lambdas/webhooks/kms-opener.ts).
export { DecryptCommand, KMSClient } from '@aws-sdk/client-kms';
