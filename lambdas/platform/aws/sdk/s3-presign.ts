// Presigned GET links, loaded on first use (../../blob.ts).
export { getSignedUrl } from '@aws-sdk/s3-request-presigner';
