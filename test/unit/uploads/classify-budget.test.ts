import { describe, expect, it } from 'vitest';
import { CLASSIFY_MARGIN_MS, classifyBudgetMs, finishDeadline, FINISH_GRACE, takesAnother } from '../../../lambdas/uploads/pipeline/classify-budget';

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

  describe('a nearly done invocation finishes instead of looping', () => {
    // Started at 0, budget's deadline at 20 s, stretched (half a budget more) at 30 s.
    const at = (answered: number, left: number, now = 20_000) => finishDeadline({ started: 0, now, answered, left }, 20_000, 30_000);

    it('goes on to the stretched deadline when the numbers left are done by it at the pace so far', () => {
      expect(FINISH_GRACE).toBe(0.5);
      expect(at(200, 50)).toBe(30_000); // 10/s: 5 s more
      expect(at(200, 100)).toBe(30_000); // exactly 10 s more: done at 30 s
    });

    it('stops at the budget when the rest would not be done by then', () => {
      expect(at(200, 101)).toBe(20_000);
      expect(at(240, 4_760)).toBe(20_000); // a large chunk: it loops as before
    });

    it('stops at the budget with no pace to project from, and never stretches backwards', () => {
      expect(at(0, 10)).toBe(20_000); // nothing answered yet (a stalled provider)
      expect(at(200, 0)).toBe(20_000); // nothing left
      expect(at(200, 50, 0)).toBe(20_000); // no time has passed
      expect(at(Number.NaN, 50)).toBe(20_000);
      expect(at(200, Infinity)).toBe(20_000);
      expect(finishDeadline({ started: 0, now: 20_000, answered: 200, left: 1 }, 20_000, 20_000)).toBe(20_000); // no room left (the Lambda's remaining time)
      expect(finishDeadline({ started: 0, now: 20_000, answered: 200, left: 1 }, 20_000, 10_000)).toBe(20_000);
    });

    it('the stretched deadline keeps the margin of a Lambda started late', () => {
      // 300 s budget, 1.5 × it is 450 s; with 500 s remaining the margin bounds it at 380 s.
      expect(classifyBudgetMs(300_000 * (1 + FINISH_GRACE), 500_000)).toBe(380_000);
      expect(classifyBudgetMs(300_000 * (1 + FINISH_GRACE), 600_000)).toBe(450_000);
    });
  });
});
