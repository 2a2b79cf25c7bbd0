import { describe, expect, it } from 'vitest';
import { CLASSIFY_MARGIN_MS, classifyBudgetMs, takesAnother } from '../../../lambdas/uploads/pipeline/classify-budget';

describe('ClassifyChunk time budget', () => {
  it('is the configured budget while the Lambda has time to spare', () => {
    expect(classifyBudgetMs(300_000, 600_000)).toBe(300_000);
    expect(classifyBudgetMs(300_000, undefined)).toBe(300_000); // local: no Lambda context
  });

  it('is the remaining time less the margin when that is shorter, and never negative', () => {
    expect(CLASSIFY_MARGIN_MS).toBe(120_000);
    expect(classifyBudgetMs(300_000, 400_000)).toBe(280_000);
    expect(classifyBudgetMs(300_000, 100_000)).toBe(0);
    expect(classifyBudgetMs(300_000, Number.NaN)).toBe(300_000);
    expect(classifyBudgetMs(0, 600_000)).toBe(0);
  });

  it('a worker takes its first number whatever the time, and others only before the deadline', () => {
    expect(takesAnother(2_000, 1_000, 0)).toBe(true);
    expect(takesAnother(999, 1_000, 5)).toBe(true);
    expect(takesAnother(1_000, 1_000, 5)).toBe(false);
  });
});
