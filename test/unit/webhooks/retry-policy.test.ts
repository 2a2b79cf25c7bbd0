import { describe, expect, it } from 'vitest';
import { isPermanentFailure, MAX_ATTEMPTS, nextAttemptAtMs, queueDelaySeconds } from '../../../lambdas/webhooks/retry-policy';
import { normalizeEvents } from '../../../lambdas/webhooks/endpoints';

describe('retry policy', () => {
  it('waits 1 min, 5 min, 30 min, 2 h, 12 h between six attempts (about 14 h 36 min in all)', () => {
    let at = 0;
    const due: number[] = [];
    for (let attempt = 1; attempt < MAX_ATTEMPTS; attempt++) {
      at = nextAttemptAtMs(attempt, at)!;
      due.push(at);
    }
    expect(due).toEqual([60, 360, 2160, 9360, 52560].map((s) => s * 1000));
    expect(nextAttemptAtMs(6, at)).toBeNull();
    expect(at / 60_000).toBe(14 * 60 + 36);
  });

  it('caps SQS delays at 900 s and never goes negative', () => {
    expect(queueDelaySeconds(1_800_000, 0)).toBe(900);
    expect(queueDelaySeconds(60_000, 0)).toBe(60);
    expect(queueDelaySeconds(1_500, 0)).toBe(2);
    expect(queueDelaySeconds(0, 5_000)).toBe(0);
  });

  it('treats only 410 as permanent', () => {
    expect(isPermanentFailure(410)).toBe(true);
    for (const status of [null, 301, 400, 401, 404, 429, 500, 503]) expect(isPermanentFailure(status)).toBe(false);
  });
});

describe('event subscriptions', () => {
  it('defaults to upload.completed and upload.failed, de-duplicates, refuses unknown, empty and ping', () => {
    expect(normalizeEvents(undefined)).toEqual(['upload.completed', 'upload.failed']);
    expect(normalizeEvents(['contact.failed', 'contact.failed', 'number.verified'])).toEqual(['contact.failed', 'number.verified']);
    expect(() => normalizeEvents([])).toThrow(/at least one/);
    expect(() => normalizeEvents(['webhook.ping'])).toThrow(/Unknown/);
    expect(() => normalizeEvents(['UPLOAD.COMPLETED'])).toThrow(/Unknown/);
  });
});
