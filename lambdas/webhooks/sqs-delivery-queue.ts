import type { SQSClient } from '@aws-sdk/client-sqs';
import { lazyModule } from '../platform/aws/lazy-module';
import { nowMs } from '../platform/clock';
import { queueDelaySeconds } from './retry-policy';
import type { DeliveryQueue } from './delivery-queue-port';

export interface DeliveryMessage {
  delivery_id: string;
  /** When the attempt is due (ISO); a message that arrives early is re-sent with the rest of the wait. */
  due_at: string;
}

/** SQS SendMessage, loaded at the first enqueue (lib/bundle-options.ts: a chunk of its own). */
const sqsSdk = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/sqs-send'));

let client: SQSClient | null = null;

/** SQS delays stop at 900 s, so a 30 min / 2 h / 12 h wait is a chain of messages. */
export function sqsDeliveryQueue(queueUrl: string): DeliveryQueue {
  return {
    async enqueue(deliveryId, dueAtMs) {
      const { SQSClient, SendMessageCommand } = await sqsSdk();
      client ??= new SQSClient({});
      const message: DeliveryMessage = { delivery_id: deliveryId, due_at: new Date(dueAtMs).toISOString() };
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message), DelaySeconds: queueDelaySeconds(dueAtMs, nowMs()) }));
    },
  };
}
