import { config } from '../platform/config';
import { logger } from '../platform/logger';
import type { CarrierTestPort } from './carrier-test/port';
import type { SpamTestPorts } from './ports';
import { runWorkItem, type ItemResult } from './carrier-item';
import type { SpamWorkItem } from './work-item';

/**
 * The fan-out without a queue (the local runtime, the admin CLI, tests): the same work items and
 * the same rules as the SQS consumer: at most SPAM_RUN_CONCURRENCY tests at once, each item tried
 * up to SPAM_ITEM_ATTEMPTS times with a SPAM_TEST_TIMEOUT_MS bound per try.
 */
export async function runInProcess(ports: SpamTestPorts, items: SpamWorkItem[], port: CarrierTestPort): Promise<ItemResult[]> {
  const { SPAM_RUN_CONCURRENCY: concurrency, SPAM_ITEM_ATTEMPTS: attempts, SPAM_TEST_TIMEOUT_MS: timeoutMs } = config();
  const results: ItemResult[] = new Array<ItemResult>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await runWithRetries(ports, items[index]!, port, Math.max(1, attempts), timeoutMs);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}

async function runWithRetries(ports: SpamTestPorts, item: SpamWorkItem, port: CarrierTestPort, attempts: number, timeoutMs: number): Promise<ItemResult> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await runWorkItem(ports, item, port, { finalAttempt: attempt >= attempts, timeoutMs });
    } catch (error) {
      // One item's failure never stops the others; after its last try it stays as recorded
      // (`running` if even the failure could not be written) and tomorrow's run tests it again.
      logger.warn('spam work item failed', { number_id: item.number_id, carrier: item.carrier, attempt, error: error as Error });
      if (attempt >= attempts) return { status: 'failed', alerted: false };
    }
  }
}
