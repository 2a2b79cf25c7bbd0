import { describe, expect, it } from 'vitest';
import { codeSentMessage, failureReason, plainCodeError } from '../../../web/src/spam-words';
import { carriedBefore, kindWords } from '../../../web/src/ledger';

describe('spam monitoring in words', () => {
  it('says why a carrier test failed from the SIP code, else from the lab’s words', () => {
    expect(failureReason('simulated: handset temporarily unavailable', '480')).toBe('The test phone on this carrier was unavailable. The next daily test tries again.');
    expect(failureReason('device lab error: POST /v1/test-calls answered 503', null)).toBe('The test lab could not place the call. The next daily test tries again.');
    expect(failureReason('carrier test timed out after 120000 ms', null)).toBe('The test call took too long. The next daily test tries again.');
    expect(failureReason('simulated: handset temporarily unavailable', null)).toBe('Handset temporarily unavailable. The next daily test tries again.');
    expect(failureReason(null, null)).toBe('The test call could not be completed. The next daily test tries again.');
    expect(failureReason('', '999')).toBe('The test call could not be completed. The next daily test tries again.');
  });

  it('names the button instead of the API’s path, and leaves other refusals as they are', () => {
    expect(plainCodeError('The verification code has expired; request a new one with verify/resend')).toBe('The verification code has expired. Use “Send a new code” to get another.');
    expect(plainCodeError('No verification code is pending; request one with verify/resend')).toBe('No verification code is pending. Use “Send a new code” to get another.');
    expect(plainCodeError('Invalid verification code; request a new code with verify/resend')).toBe('Invalid verification code. Use “Send a new code” to get another.');
    expect(plainCodeError('Invalid verification code; 2 attempts left')).toBe('Invalid verification code; 2 attempts left');
  });

  it('says how the code went', () => {
    expect(codeSentMessage('call', '+12025550100', true)).toMatch(/^We are calling \+12025550100/);
    expect(codeSentMessage('sms', '+12025550100', false)).toBe('We could not text +12025550100. Use “Send a new code” to try again.');
  });
});

describe('the credits ledger', () => {
  const line = (amount: number) => ({ change_id: String(amount), kind: 'debit', amount, reason: '', created_at: '' });

  it('carries over only what the rows shown do not explain', () => {
    expect(carriedBefore(700, [line(1000), line(-300)])).toBe(0);
    expect(carriedBefore(10_700, [line(1000), line(-300)])).toBe(10_000);
    expect(carriedBefore(0, [line(-50)])).toBe(50);
    expect(carriedBefore(5, [])).toBe(5);
  });

  it('names kinds in words, unknown ones as they are', () => {
    expect(kindWords('replenish')).toBe('subscription allocation');
    expect(kindWords('debit')).toBe('charge');
    expect(kindWords('bonus')).toBe('bonus');
  });
});
