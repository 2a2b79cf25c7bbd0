// The S3 client alone, loaded on first use (../sdk-storage.ts); each command the service calls is a
// module of its own beside it, so that a function's code can call only the commands it uses
// (test/deployed/least-privilege.test.ts): an import() of the package would keep every command.
export { S3Client } from '@aws-sdk/client-s3';
