import { nowIso, nowMs } from '../platform/clock';
import { config } from '../platform/config';
import { logger } from '../platform/logger';
import { dayOf } from './carriers';
import type { CarrierTestPort } from './carrier-test/port';
import { runInProcess } from './in-process';
import { planDailyRun, type RunSummary } from './plan';
import type { SpamTestPorts } from './ports';
import { queueWorkItems } from './work-queue';
import { claimScheduledDay } from './run-repository';

// The daily spam test run as the local runtime and the admin CLI run it (the AWS schedule's entry
// is fanOutDailyRun below): plan, then fan out. With SPAM_QUEUE_URL the work items go to the
// queue; otherwise they are tested here, each with its own tries and timeout (in-process.ts), so
// one slow or failing test never holds up the rest. Safe to run more than once a day: a day's row
// per carrier is overwritten and spam.detected fires only on a clean → spam change.

export type { RunSummary };

export async function runDailySpamTests(ports: SpamTestPorts, options: { port?: CarrierTestPort; organizationId?: string } = {}): Promise<RunSummary> {
  const port = options.port ?? ports.carrierTests;
  const { summary, items } = await planDailyRun({ simulated: port.simulated, organizationId: options.organizationId });
  const queueUrl = config().SPAM_QUEUE_URL;
  if (queueUrl) {
    await queueWorkItems(queueUrl, items);
    summary.queued = items.length;
  } else {
    for (const r of await runInProcess(ports, items, port)) {
      if (r.status === 'completed') summary.tests_completed++;
      else if (r.status === 'failed') summary.tests_failed++;
      if (r.alerted) summary.spam_detected_events++;
    }
  }
  logger.info('spam test run', { ...summary });
  return summary;
}

/** Runs the day's tests once (the local timer's entry): a second call on the same day does nothing. */
export async function runScheduledSpamTests(ports: SpamTestPorts): Promise<RunSummary | null> {
  if (!(await claimScheduledDay(dayOf(nowMs()), nowIso()))) return null;
  return runDailySpamTests(ports);
}

/**
 * The AWS schedule's daily run: plans the day and queues one message per number and carrier for
 * the test consumer. It never tests a number itself, so its function's role holds no screenshot,
 * device-lab or event rights, and a retry only plans again: the day's rows are overwritten, not
 * duplicated.
 */
export async function fanOutDailyRun(): Promise<RunSummary> {
  const { SPAM_QUEUE_URL: queueUrl, CARRIER_TEST_PROVIDER: provider } = config();
  if (!queueUrl) throw new Error('SPAM_QUEUE_URL is not set: the daily run has no queue to fan out to');
  const { summary, items } = await planDailyRun({ simulated: provider === 'simulator' });
  await queueWorkItems(queueUrl, items);
  summary.queued = items.length;
  logger.info('spam test run planned', { ...summary });
  return summary;
}
