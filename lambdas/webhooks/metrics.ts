import { config } from '../platform/config';

export const METRICS_NAMESPACE = 'PhoneValidation/Webhooks';
export const AUTO_DISABLED_METRIC = 'EndpointsAutoDisabled';

/** The dimension every metric of the service carries: its stage's alarm counts that stage's alone. */
export const STAGE_DIMENSION = 'Stage';

/**
 * One CloudWatch embedded-metric-format line per auto-disable; the stack alarms on the metric with
 * its stage's dimension. Written only inside Lambda, where stdout is the function's log stream.
 */
export function publishAutoDisabledMetric(): void {
  if (!config().AWS_LAMBDA_FUNCTION_NAME) return;
  process.stdout.write(`${JSON.stringify(autoDisabledMetricLine(config().STAGE, Date.now()))}\n`);
}

export function autoDisabledMetricLine(stage: string, timestamp: number): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[STAGE_DIMENSION]], Metrics: [{ Name: AUTO_DISABLED_METRIC, Unit: 'Count' }] }],
    },
    [STAGE_DIMENSION]: stage,
    [AUTO_DISABLED_METRIC]: 1,
  };
}
