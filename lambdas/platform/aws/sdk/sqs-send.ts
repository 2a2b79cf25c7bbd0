// SQS SendMessage only, loaded on first use (lambdas/webhooks/sqs-delivery-queue.ts).
export { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
