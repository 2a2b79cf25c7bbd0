import type { SQSClient } from '@aws-sdk/client-sqs';
import { lazyModule } from '../platform/aws/lazy-module';

/** SQS SendMessageBatch, loaded at the first send (lib/bundle-options.ts: a chunk of its own). */
const sqsSdk = /* @__PURE__ */ lazyModule(() => import('../platform/aws/sdk/sqs-send-batch'));
import { setTimeout as sleep } from 'node:timers/promises';
import type { SpamWorkItem } from './work-item';

let client: SQSClient | null = null;

/**
 * Sends the day's work items to the spam queue, ten to a request. Its consumer is bounded by the
 * event source's maximum concurrency and retries each message alone (lib/spam-construct.ts).
 */
export async function queueWorkItems(queueUrl: string, items: SpamWorkItem[]): Promise<void> {
  const { SQSClient, SendMessageBatchCommand } = await sqsSdk();
  client ??= new SQSClient({});
  for (let i = 0; i < items.length; i += 10) {
    let batch = items.slice(i, i + 10).map((item, j) => ({ Id: String(j), MessageBody: JSON.stringify(item) }));
    // SendMessageBatch may accept part of a batch; the rest is sent again (the items are not lost to a throttle).
    for (let attempt = 1; batch.length; attempt++) {
      const out = await client.send(new SendMessageBatchCommand({ QueueUrl: queueUrl, Entries: batch }));
      const failed = new Set((out.Failed ?? []).map((f) => f.Id));
      batch = batch.filter((entry) => failed.has(entry.Id));
      if (batch.length && attempt >= 5) throw new Error(`spam queue refused ${batch.length} work items: ${JSON.stringify(out.Failed)}`);
      if (batch.length) await sleep(100 * 2 ** attempt);
    }
  }
}
