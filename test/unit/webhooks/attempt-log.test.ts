import { describe, expect, it } from 'vitest';
import { attemptLogEntry, skippedLogEntry } from '../../../lambdas/webhooks/attempt-log';

const record = { id: 'dlv_1', kind: 'webhook' as const, webhook_id: 'wh-1', organization_id: 'org-1', event_id: 'evt_1', event_type: 'upload.completed' };
const attempt = { attempt: 2, maxAttempts: 6, statusCode: 500, error: null, nextAttemptAt: '2026-06-01T12:06:00.000Z', finalAttempt: false };

describe('the log line of a webhook delivery attempt', () => {
  it('a success is INFO', () => {
    const entry = attemptLogEntry(record, { ...attempt, state: 'succeeded', statusCode: 200, nextAttemptAt: null });
    expect(entry.level).toBe('info');
    expect(entry.fields).toMatchObject({ delivery_state: 'succeeded', http_status: 200, attempt: 2 });
  });

  it('a failure that will be retried is WARN and says when the next attempt is due', () => {
    const entry = attemptLogEntry(record, { ...attempt, state: 'pending' });
    expect(entry).toMatchObject({ level: 'warn', message: 'webhook delivery attempt failed, will retry' });
    expect(entry.fields).toEqual({
      delivery_id: 'dlv_1',
      delivery_kind: 'webhook',
      webhook_id: 'wh-1',
      organization_id: 'org-1',
      event_id: 'evt_1',
      event_type: 'upload.completed',
      attempt: 2,
      max_attempts: 6,
      http_status: 500,
      error: null,
      delivery_state: 'pending',
      next_attempt_at: '2026-06-01T12:06:00.000Z',
    });
  });

  it('never names a key `state` (it reads as the upload\'s state)', () => {
    for (const state of ['succeeded', 'pending', 'exhausted'] as const) expect(attemptLogEntry(record, { ...attempt, state }).fields).not.toHaveProperty('state');
    expect(skippedLogEntry(record, 'endpoint inactive', 3).fields).not.toHaveProperty('state');
  });

  it('a delivery given up is ERROR and says why', () => {
    const exhausted = attemptLogEntry(record, { ...attempt, attempt: 6, state: 'exhausted', statusCode: null, error: 'timed out', nextAttemptAt: null });
    expect(exhausted).toMatchObject({ level: 'error', message: 'webhook delivery gave up' });
    expect(exhausted.fields).toMatchObject({ delivery_state: 'exhausted', gave_up_because: 'all 6 attempts failed', error: 'timed out' });
    expect(exhausted.fields).not.toHaveProperty('next_attempt_at');
    expect(attemptLogEntry(record, { ...attempt, state: 'exhausted', statusCode: 410 }).fields.gave_up_because).toBe('receiver answered 410 Gone');
    expect(attemptLogEntry(record, { ...attempt, attempt: 7, state: 'exhausted', finalAttempt: true }).fields.gave_up_because).toBe('redelivery attempt failed');
  });

  it('a delivery ended unsent is ERROR, unless the customer deleted its endpoint', () => {
    expect(skippedLogEntry(record, 'endpoint inactive', 3)).toMatchObject({ level: 'error', fields: { delivery_state: 'exhausted', gave_up_because: 'endpoint inactive', attempts_made: 3 } });
    expect(skippedLogEntry(record, 'signing secret could not be opened', 0).level).toBe('error');
    expect(skippedLogEntry(record, 'endpoint deleted', 1).level).toBe('info');
  });
});
