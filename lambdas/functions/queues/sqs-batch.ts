import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { logger } from '../../platform/logger';

/**
 * Works an SQS batch record by record, all at once, and reports failures per message, so one bad
 * message is retried alone instead of redelivering the whole batch (ReportBatchItemFailures).
 */
export async function eachRecord(event: SQSEvent, what: string, work: (record: SQSRecord) => Promise<void>): Promise<SQSBatchResponse> {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        await work(record);
      } catch (error) {
        logger.error(`${what} failed`, { message_id: record.messageId, error: error as Error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
}
