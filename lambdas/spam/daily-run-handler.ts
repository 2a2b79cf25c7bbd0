import { config } from '../platform/config';
import { logger } from '../platform/logger';
import { planDailyRun, type RunSummary } from './plan';
import { queueWorkItems } from './work-queue';

/**
 * EventBridge Scheduler target: plans the day and queues one message per number and carrier for
 * the test consumer (test-consumer.ts). It never tests a number itself, so its role holds no
 * screenshot, device-lab or event rights, and a retry of this function only plans again: the
 * day's rows are overwritten, not duplicated.
 */
export const handler = async (): Promise<RunSummary> => {
  const { SPAM_QUEUE_URL: queueUrl, CARRIER_TEST_PROVIDER: provider } = config();
  if (!queueUrl) throw new Error('SPAM_QUEUE_URL is not set: the daily run has no queue to fan out to');
  const { summary, items } = await planDailyRun({ simulated: provider === 'simulator' });
  await queueWorkItems(queueUrl, items);
  summary.queued = items.length;
  logger.info('spam test run planned', { ...summary });
  return summary;
};
