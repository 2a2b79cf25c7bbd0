// S3 ListObjectsV2, loaded on first use (../../blob.ts).
export { ListObjectsV2Command } from '@aws-sdk/client-s3';
