// S3 multipart upload (a large object written in parts), loaded on first use (../../blob.ts).
export { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, UploadPartCommand } from '@aws-sdk/client-s3';
