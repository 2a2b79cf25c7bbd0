import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { config } from '../platform/config';
import { logger } from '../platform/logger';
import { awsSpamTestPorts } from '../composition/aws-carrier-tests';
import { runWorkItem } from './carrier-item';
import { parseWorkItem } from './work-item';
import type { SpamTestPorts } from './ports';

/**
 * SQS consumer of the daily run's fan-out: one number on one carrier per message. A failed or
 * timed-out test is reported as this message's failure, so SQS retries it alone; on its last
 * receive (SPAM_ITEM_ATTEMPTS) the failure is recorded on the number instead, and a message that
 * still cannot be processed goes to the dead-letter queue, which is alarmed.
 */
export const spamTestConsumer = (ports: SpamTestPorts) => async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const failures: SQSBatchResponse['batchItemFailures'] = [];
  const { SPAM_ITEM_ATTEMPTS: attempts, SPAM_TEST_TIMEOUT_MS: timeoutMs } = config();
  await Promise.all(
    event.Records.map(async (record) => {
      try {
        const item = parseWorkItem(record.body);
        const receives = Number(record.attributes.ApproximateReceiveCount) || 1;
        await runWorkItem(ports, item, ports.carrierTests, { finalAttempt: receives >= attempts, timeoutMs });
      } catch (error) {
        logger.error('spam work item failed', { message_id: record.messageId, error: error as Error });
        failures.push({ itemIdentifier: record.messageId });
      }
    }),
  );
  return { batchItemFailures: failures };
};

export const handler = spamTestConsumer(awsSpamTestPorts());
