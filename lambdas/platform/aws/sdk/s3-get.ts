// S3 GetObject (and its not-found error), loaded on first use (../../blob.ts).
export { GetObjectCommand } from '@aws-sdk/client-s3';
