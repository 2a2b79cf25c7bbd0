import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { logger } from '../platform/logger';
import { enqueueDelivery, type DeliveryPorts } from './delivery-queue';
import { processDelivery } from './delivery';
import { awsDeliveryPorts, awsOpenPorts } from '../composition/aws';
import type { OpenPorts } from './secret-sealer';

/**
 * SQS consumer of the delivery chain. A message that arrives before its attempt is due (waits
 * over SQS's 15-minute delay limit) is sent on with the rest of the wait. Failures are reported
 * per message, so one bad delivery does not redeliver the batch.
 */
export const deliveryConsumer =
  (ports: DeliveryPorts & OpenPorts) =>
  async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failures: SQSBatchResponse['batchItemFailures'] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        try {
          const message = JSON.parse(record.body) as { delivery_id?: unknown };
          if (typeof message.delivery_id !== 'string') throw new Error('message has no delivery_id');
          const result = await processDelivery(ports, message.delivery_id);
          if (result.kind === 'not_due') await enqueueDelivery(ports.deliveryQueue, message.delivery_id, result.dueAtMs);
        } catch (error) {
          logger.error('webhook delivery message failed', { message_id: record.messageId, error: error as Error });
          failures.push({ itemIdentifier: record.messageId });
        }
      }),
    );
    return { batchItemFailures: failures };
  };

/** The SQS-triggered Lambda, wired by the AWS composition root. */
export const handler = deliveryConsumer({ ...awsDeliveryPorts(), ...awsOpenPorts() });
