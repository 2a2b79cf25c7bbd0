import { fanOutDailyRun } from '../../spam/daily-run';

/** EventBridge Scheduler target: the day's carrier tests, queued for the test consumer. */
export const handler = () => fanOutDailyRun();
