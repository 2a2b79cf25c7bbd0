// S3 HeadObject, loaded on first use (../../blob.ts).
export { HeadObjectCommand } from '@aws-sdk/client-s3';
