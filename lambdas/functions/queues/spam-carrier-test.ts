import type { SQSEvent } from 'aws-lambda';
import { awsSpamTestPorts } from '../../composition/aws-carrier-tests';
import { runQueuedWorkItem } from '../../spam/carrier-item';
import type { SpamTestPorts } from '../../spam/ports';
import { eachRecord } from './sqs-batch';

/**
 * SQS consumer of the daily run's fan-out: one number on one carrier per message. A failed or
 * timed-out test fails only its message, so SQS retries it alone (runQueuedWorkItem records the
 * failure on the number at the last receive).
 */
export const spamTestConsumer = (ports: SpamTestPorts) => (event: SQSEvent) =>
  eachRecord(event, 'spam work item', (record) => runQueuedWorkItem(ports, record.body, Number(record.attributes.ApproximateReceiveCount) || 1));

export const handler = spamTestConsumer(awsSpamTestPorts());
