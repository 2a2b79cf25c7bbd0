import { describe, expect, it } from 'vitest';
import { AUTO_DISABLED_METRIC, autoDisabledMetricLine, METRICS_NAMESPACE } from '../../../lambdas/webhooks/metrics';
import { parseConfig } from '../../../lambdas/platform/config';

// Stages in one account never trip each other's auto-disable alarm: the metric carries the stage.

describe('the endpoint auto-disable metric', () => {
  it('is written with the Stage dimension and the stage the stack sets (STAGE)', () => {
    const line = autoDisabledMetricLine('prod', 1_700_000_000_000);
    expect(line).toEqual({
      _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: METRICS_NAMESPACE, Dimensions: [['Stage']], Metrics: [{ Name: AUTO_DISABLED_METRIC, Unit: 'Count' }] }] },
      Stage: 'prod',
      [AUTO_DISABLED_METRIC]: 1,
    });
    expect(parseConfig({ STAGE: 'prod' }).STAGE).toBe('prod');
    // Outside a deployed stack (the local runtime), the stage reads `local`.
    expect(parseConfig({}).STAGE).toBe('local');
  });
});
