// Describing a secret (its versions), loaded on first use (lambdas/platform/charge-readiness.ts).
export { DescribeSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
