import { logger } from '../platform/logger';
import { balanceOrganizations } from './balance-repository';
import { clearRecordedInflightMarks, replenishIfDue } from './credits';

/**
 * Daily (EventBridge Scheduler in AWS, a timer locally): starts the next billing period of every
 * organization whose period has ended, and clears in-flight marks of changes already in the ledger
 * (a crash between the two writes left them; harmless, so once a day is enough for the one job that
 * lists every balance). Safe to run any number of times a day.
 */
export async function runBillingPeriodJob(): Promise<{ checked: number; replenished: number; inflightMarksCleared: number }> {
  let checked = 0;
  let replenished = 0;
  for await (const orgId of balanceOrganizations()) {
    checked++;
    try {
      if (await replenishIfDue(orgId)) replenished++;
    } catch (error) {
      // One organization's failure must not stop the others; the next run retries it.
      logger.error('billing period replenish failed', { organization_id: orgId, error: error as Error });
    }
  }
  const { cleared } = await clearRecordedInflightMarks();
  logger.info('billing period job', { checked, replenished, inflightMarksCleared: cleared });
  return { checked, replenished, inflightMarksCleared: cleared };
}
