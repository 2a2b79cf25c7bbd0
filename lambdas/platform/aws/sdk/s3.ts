// What the service calls of S3, loaded on first use (../../blob.ts): a module of its own so that the
// chunk holds these commands only (an import() of the package would keep every command).
export { GetObjectCommand, HeadObjectCommand, NoSuchKey, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
