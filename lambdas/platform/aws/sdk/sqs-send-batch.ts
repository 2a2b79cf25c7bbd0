// SQS SendMessageBatch only, loaded on first use (lambdas/spam/work-queue.ts).
export { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
