import { config } from '../platform/config';
import type { LookupOrigin } from './signals';

// What lookups cost, counted per answer (docs/cost.md): paid lookups made, answers served from the
// cache, lookups that failed after their retries. Free answers (a deciding range, the offline and
// simulator providers) are none of these.

export interface LookupCounts {
  paid: number;
  cached: number;
  failed: number;
}

export const noLookups = (): LookupCounts => ({ paid: 0, cached: 0, failed: 0 });

/** Adds one answer to `counts`: a failure whatever its origin, else by origin. */
export function countLookup(counts: LookupCounts, answer: { origin?: LookupOrigin; lookupError?: string }): LookupCounts {
  if (answer.lookupError) counts.failed++;
  else if (answer.origin === 'paid') counts.paid++;
  else if (answer.origin === 'cache') counts.cached++;
  return counts;
}

export function lookupCountsOf(answers: readonly { origin?: LookupOrigin; lookupError?: string }[]): LookupCounts {
  return answers.reduce(countLookup, noLookups());
}

export const LOOKUP_METRICS_NAMESPACE = 'PhoneValidation/Lookups';

/**
 * One CloudWatch embedded-metric-format line per classified chunk, by provider: LookupsPaid,
 * LookupsCached, LookupsFailed. Written only inside Lambda, where stdout is the function's log stream.
 */
export function publishLookupMetrics(provider: string, counts: LookupCounts, write: (line: string) => void = (line) => process.stdout.write(line)): void {
  if (!config().AWS_LAMBDA_FUNCTION_NAME) return;
  write(`${JSON.stringify(lookupMetricsLine(provider, counts, Date.now()))}\n`);
}

export function lookupMetricsLine(provider: string, counts: LookupCounts, timestamp: number): Record<string, unknown> {
  return {
    _aws: {
      Timestamp: timestamp,
      CloudWatchMetrics: [
        {
          Namespace: LOOKUP_METRICS_NAMESPACE,
          Dimensions: [['Provider']],
          Metrics: [
            { Name: 'LookupsPaid', Unit: 'Count' },
            { Name: 'LookupsCached', Unit: 'Count' },
            { Name: 'LookupsFailed', Unit: 'Count' },
          ],
        },
      ],
    },
    Provider: provider,
    LookupsPaid: counts.paid,
    LookupsCached: counts.cached,
    LookupsFailed: counts.failed,
  };
}
