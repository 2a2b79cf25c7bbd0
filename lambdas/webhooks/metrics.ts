import { config } from '../platform/config';

export const METRICS_NAMESPACE = 'PhoneValidation/Webhooks';
export const AUTO_DISABLED_METRIC = 'EndpointsAutoDisabled';

/** The metric's one dimension: each stage alarms on its own endpoints only. */
export const STAGE_DIMENSION = 'Stage';

/** The embedded-metric-format line of one auto-disable in `stage`. */
export function autoDisabledMetricLine(stage: string, now: number): string {
  return JSON.stringify({
    _aws: {
      Timestamp: now,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[STAGE_DIMENSION]], Metrics: [{ Name: AUTO_DISABLED_METRIC, Unit: 'Count' }] }],
    },
    [STAGE_DIMENSION]: stage,
    [AUTO_DISABLED_METRIC]: 1,
  });
}

/**
 * One CloudWatch embedded-metric-format line per auto-disable; the stack alarms on the metric of
 * its stage. Written only inside Lambda, where stdout is the function's log stream.
 */
export function publishAutoDisabledMetric(): void {
  const { AWS_LAMBDA_FUNCTION_NAME, STAGE } = config();
  if (!AWS_LAMBDA_FUNCTION_NAME) return;
  process.stdout.write(`${autoDisabledMetricLine(STAGE ?? 'unknown', Date.now())}\n`);
}
