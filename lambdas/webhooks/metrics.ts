import { config } from '../platform/config';

export const METRICS_NAMESPACE = 'PhoneValidation/Webhooks';
export const AUTO_DISABLED_METRIC = 'EndpointsAutoDisabled';

/**
 * One CloudWatch embedded-metric-format line per auto-disable; the stack alarms on the metric.
 * Written only inside Lambda, where stdout is the function's log stream.
 */
export function publishAutoDisabledMetric(): void {
  if (!config().AWS_LAMBDA_FUNCTION_NAME) return;
  const line = {
    _aws: {
      Timestamp: Date.now(),
      CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [[]], Metrics: [{ Name: AUTO_DISABLED_METRIC, Unit: 'Count' }] }],
    },
    [AUTO_DISABLED_METRIC]: 1,
  };
  process.stdout.write(`${JSON.stringify(line)}\n`);
}
