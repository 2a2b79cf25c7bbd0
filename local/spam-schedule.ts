import { everyInterval } from './scheduled-jobs';
import type { LocalWorker } from './local-worker';
import type { Ports } from '../lambdas/composition/ports';
import { runScheduledSpamTests } from '../lambdas/spam/daily-run';

/**
 * Local stand-in for the daily EventBridge schedule: checks hourly (LOCAL_SPAM_CHECK_INTERVAL_MS)
 * and runs the day's tests once per UTC day. `npm run admin -- spam-run` runs them now.
 */
export const startLocalSpamSchedule = async (ports: Ports): Promise<LocalWorker> =>
  everyInterval('spam-daily-tests', Number(process.env.LOCAL_SPAM_CHECK_INTERVAL_MS ?? 3_600_000), () => runScheduledSpamTests(ports));
