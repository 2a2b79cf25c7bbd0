// KMS Encrypt only, loaded on first use (lambdas/webhooks/kms-sealer.ts): the functions that seal
// carry no Decrypt, and the reverse (test/deployed/least-privilege.test.ts).
export { EncryptCommand, KMSClient } from '@aws-sdk/client-kms';
