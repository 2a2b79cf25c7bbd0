import { describe, expect, it } from 'vitest';
import { asyncRetryAttempts } from '../../../lib/async-failures';

describe('Lambda retries of a scheduled job', () => {
  it('none for a job that runs again within 15 minutes: its next run is the retry', () => {
    expect(asyncRetryAttempts('rate(1 minute)')).toBe(0);
    expect(asyncRetryAttempts('rate(5 minutes)')).toBe(0);
    expect(asyncRetryAttempts('rate(15 minutes)')).toBe(0);
  });

  it("Lambda's two for rarer jobs", () => {
    expect(asyncRetryAttempts('rate(16 minutes)')).toBe(2);
    expect(asyncRetryAttempts('rate(1 hour)')).toBe(2);
    expect(asyncRetryAttempts('cron(15 0 * * ? *)')).toBe(2);
    expect(asyncRetryAttempts('at(2026-12-01T00:00:00)')).toBe(2);
  });

  it('refuses an expression it cannot read rather than guess', () => {
    expect(() => asyncRetryAttempts('rate(5 fortnights)')).toThrow(/unrecognized/);
    expect(() => asyncRetryAttempts('')).toThrow(/unrecognized/);
  });
});
