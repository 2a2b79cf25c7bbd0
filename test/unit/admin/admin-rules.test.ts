import { describe, expect, it } from 'vitest';
import { assertCapCoversAllocation, parseKeyExpiry } from '../../../lambdas/admin/admin';

const NOW = Date.parse('2026-11-25T12:00:00Z');

describe('operator rules', () => {
  it('a key expiry must be a date or Unix seconds in the future', () => {
    expect(parseKeyExpiry('2027-01-01T00:00:00Z', NOW)).toBe('2027-01-01T00:00:00.000Z');
    expect(parseKeyExpiry(String(NOW / 1000 + 60), NOW)).toBe('2026-11-25T12:01:00.000Z');
    expect(() => parseKeyExpiry('2026-11-25T12:00:00Z', NOW)).toThrow(/is not in the future/);
    expect(() => parseKeyExpiry('0', NOW)).toThrow(/1970-01-01T00:00:00.000Z is not in the future/);
    expect(() => parseKeyExpiry('next week', NOW)).toThrow(/neither an ISO date nor Unix seconds/);
  });

  it('a subscription cap may not be below the monthly allocation', () => {
    expect(() => assertCapCoversAllocation(100, 100)).not.toThrow();
    expect(() => assertCapCoversAllocation(100, null)).not.toThrow();
    expect(() => assertCapCoversAllocation(0, 0)).not.toThrow();
    expect(() => assertCapCoversAllocation(100, 99)).toThrow(/cap 99 is below the monthly allocation 100/);
  });
});
