// S3 PutObject, loaded on first use (../../blob.ts).
export { PutObjectCommand } from '@aws-sdk/client-s3';
