import { logger } from '../platform/logger';
import type { DeliveryQueue } from './delivery-queue-port';

/**
 * Hands a delivery to the queue its caller was given (an SQS delay queue in AWS, an in-process
 * timer queue locally; see the composition roots). The queue is only a carrier: the delivery
 * record in the table is the truth, and the sweeper finds anything a lost message would have carried.
 */
export type { DeliveryPorts, DeliveryQueue } from './delivery-queue-port';

/** Never throws: a failed enqueue leaves the delivery to the sweeper. */
export async function enqueueDelivery(queue: DeliveryQueue | null, deliveryId: string, dueAtMs: number): Promise<void> {
  if (!queue) return;
  try {
    await queue.enqueue(deliveryId, dueAtMs);
  } catch (error) {
    logger.warn('webhook delivery enqueue failed; the sweeper will pick it up', { delivery_id: deliveryId, error: error as Error });
  }
}
