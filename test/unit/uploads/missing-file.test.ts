import { describe, expect, it } from 'vitest';
import { pastRetention } from '../../../lambdas/uploads/missing-file';

const DAY_MS = 86_400_000;
const created = '2026-06-01T12:00:00.000Z';
const at = (days: number) => Date.parse(created) + days * DAY_MS;

describe('a missing upload file: expired by the retention rule, or lost', () => {
  it('is past retention from `retentionDays` after the upload was created', () => {
    expect(pastRetention(created, at(90) - 1, 90)).toBe(false);
    expect(pastRetention(created, at(90), 90)).toBe(true);
    expect(pastRetention(created, at(400), 90)).toBe(true);
  });

  it('is never past retention without a rule (0: the local runtime keeps uploads for good)', () => {
    expect(pastRetention(created, at(10_000), 0)).toBe(false);
  });
});
