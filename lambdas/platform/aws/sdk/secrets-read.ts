// Reading a secret's value, loaded on first use (../secrets.ts): this command only, so that a
// function's code can call no other Secrets Manager operation (test/deployed/least-privilege.test.ts).
export { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
