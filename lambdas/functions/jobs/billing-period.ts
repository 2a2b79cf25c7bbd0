import { runBillingPeriodJob } from '../../credits/billing-period-job';

/** EventBridge Scheduler target, daily: next billing periods and in-flight mark clean-up. */
export const handler = () => runBillingPeriodJob();
