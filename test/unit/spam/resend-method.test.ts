import { describe, expect, it } from 'vitest';
import { resendMethod } from '../../../lambdas/spam/number-enrollment';
import { newChallenge } from '../../../lambdas/spam/verification-code';

describe('the method of a new code', () => {
  const byCall = newChallenge('123456', 'call', 0);
  const bySms = newChallenge('123456', 'sms', 0);

  it('is the one asked for', () => {
    expect(resendMethod('sms', { verification: byCall, sms_capable: true })).toBe('sms');
    expect(resendMethod('call', { verification: bySms, sms_capable: true })).toBe('call');
  });

  it('without one, is the last code’s: a number added for a call is called again', () => {
    expect(resendMethod(undefined, { verification: byCall, sms_capable: true })).toBe('call');
    expect(resendMethod(undefined, { verification: bySms, sms_capable: true })).toBe('sms');
  });

  it('with no code yet, is a text where the number takes texts, else a call', () => {
    expect(resendMethod(undefined, { verification: null, sms_capable: true })).toBe('sms');
    expect(resendMethod(undefined, { verification: null, sms_capable: false })).toBe('call');
  });
});
