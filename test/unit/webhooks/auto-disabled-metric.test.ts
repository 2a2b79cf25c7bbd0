import { describe, expect, it } from 'vitest';
import { autoDisabledMetricLine } from '../../../lambdas/webhooks/metrics';

describe('auto-disable metric', () => {
  it('is published with its stage as the one dimension, so stages never trip each other', () => {
    const line = JSON.parse(autoDisabledMetricLine('staging', 1_700_000_000_000)) as Record<string, unknown>;
    expect(line).toEqual({
      _aws: { Timestamp: 1_700_000_000_000, CloudWatchMetrics: [{ Namespace: 'PhoneValidation/Webhooks', Dimensions: [['Stage']], Metrics: [{ Name: 'EndpointsAutoDisabled', Unit: 'Count' }] }] },
      Stage: 'staging',
      EndpointsAutoDisabled: 1,
    });
  });
});
