// Presigned POST forms for staging, loaded on first use (lambdas/uploads/staging.ts).
export { createPresignedPost } from '@aws-sdk/s3-presigned-post';
