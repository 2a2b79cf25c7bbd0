import type { NetPorts } from '../platform/net/outbound';

/**
 * Moves delivery ids to the worker that makes the next attempt when it is due: an SQS delay queue
 * in AWS, an in-process timer queue locally. Only a carrier: the delivery record is the truth.
 */
export interface DeliveryQueue {
  enqueue(deliveryId: string, dueAtMs: number): Promise<void>;
}

/**
 * What every use case that emits events, schedules or makes attempts is given by its runtime's
 * composition root (attempts reach receivers through `net`). Null: no queue is configured, the sweeper finds due deliveries on its own.
 */
export interface DeliveryPorts extends NetPorts {
  readonly deliveryQueue: DeliveryQueue | null;
}
