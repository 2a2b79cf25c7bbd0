// S3 CopyObject, loaded on first use (../../blob.ts).
export { CopyObjectCommand } from '@aws-sdk/client-s3';
