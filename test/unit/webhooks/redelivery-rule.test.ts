import { describe, expect, it } from 'vitest';
import { redeliveryDecision } from '../../../lambdas/webhooks/redelivery-rule';

const active = { is_active: true };

describe('sending a delivery again', () => {
  it('reopens only a delivery that ended without success, on an active endpoint', () => {
    expect(redeliveryDecision({ state: 'exhausted', attempt_count: 6, final_attempt: undefined }, active)).toEqual({ kind: 'reopen' });
    // Sent again before and failed again: it may be sent again once more.
    expect(redeliveryDecision({ state: 'exhausted', attempt_count: 7, final_attempt: 7 }, active)).toEqual({ kind: 'reopen' });
    expect(redeliveryDecision({ state: 'exhausted', attempt_count: 1, final_attempt: null }, { is_active: false })).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/disabled/) });
  });

  it('answers a second request for a reopened delivery as the same request (a double click)', () => {
    expect(redeliveryDecision({ state: 'pending', attempt_count: 6, final_attempt: 7 }, active)).toEqual({ kind: 'under_way' });
  });

  it('refuses a succeeded delivery and one still in its retry chain', () => {
    expect(redeliveryDecision({ state: 'succeeded', attempt_count: 1, final_attempt: null }, active)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/succeeded/) });
    expect(redeliveryDecision({ state: 'succeeded', attempt_count: 7, final_attempt: 7 }, active)).toMatchObject({ kind: 'refused' });
    expect(redeliveryDecision({ state: 'pending', attempt_count: 2, final_attempt: null }, active)).toMatchObject({ kind: 'refused', reason: expect.stringMatching(/still being retried/) });
    // A pending delivery whose asked-for attempt was made is not a redelivery under way.
    expect(redeliveryDecision({ state: 'pending', attempt_count: 7, final_attempt: 7 }, active)).toMatchObject({ kind: 'refused' });
  });
});
