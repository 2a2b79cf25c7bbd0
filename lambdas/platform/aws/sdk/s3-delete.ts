// S3 DeleteObject, loaded on first use (../../blob.ts): only a refused or abandoned create deletes.
export { DeleteObjectCommand } from '@aws-sdk/client-s3';
