import { logger } from '../platform/logger';
import { sqsDeliveryQueue } from './sqs-delivery-queue';
import { config } from '../platform/config';
import type { DeliveryQueue } from './delivery-queue-port';

/**
 * Moves delivery ids to the worker that makes the next attempt when it is due. In AWS an SQS
 * delay queue (WEBHOOK_QUEUE_URL); locally an in-process timer queue registered by the local
 * runtime. The queue is only a carrier: the delivery record in the table is the truth, and the
 * sweeper finds anything a lost message would have carried.
 */
export type { DeliveryQueue };

let registered: DeliveryQueue | null = null;

/** The local runtime (and tests) install their queue here; null restores the default. */
export function setDeliveryQueue(queue: DeliveryQueue | null): void {
  registered = queue;
}

function currentQueue(): DeliveryQueue | null {
  if (registered) return registered;
  const url = config().WEBHOOK_QUEUE_URL;
  return url ? sqsDeliveryQueue(url) : null;
}

/** Never throws: a failed enqueue leaves the delivery to the sweeper. */
export async function enqueueDelivery(deliveryId: string, dueAtMs: number): Promise<void> {
  const queue = currentQueue();
  if (!queue) return;
  try {
    await queue.enqueue(deliveryId, dueAtMs);
  } catch (error) {
    logger.warn('webhook delivery enqueue failed; the sweeper will pick it up', { delivery_id: deliveryId, error: error as Error });
  }
}
