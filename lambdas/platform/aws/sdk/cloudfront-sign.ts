// CloudFront signed URLs, loaded on first use (lambdas/uploads/download-signer.ts).
export { getSignedUrl } from '@aws-sdk/cloudfront-signer';
