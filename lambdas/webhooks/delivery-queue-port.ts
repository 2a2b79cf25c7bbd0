/**
 * Moves delivery ids to the worker that makes the next attempt when it is due: an SQS delay queue
 * in AWS, an in-process timer queue locally. Only a carrier: the delivery record is the truth.
 */
export interface DeliveryQueue {
  enqueue(deliveryId: string, dueAtMs: number): Promise<void>;
}
