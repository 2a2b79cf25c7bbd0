import { describe, expect, it } from 'vitest';
import { isSpamTransition } from '../../../lambdas/spam/edge-trigger';
import { effectiveLimit, inLimitIds } from '../../../lambdas/spam/limits';
import { isSmsCapable, normalizeUsCaOnDemand } from '../../../lambdas/spam/phone';
import {
  CODE_TTL_MS,
  codeMatches,
  generateCode,
  guessAllowed,
  hashCode,
  MAX_ATTEMPTS,
  MAX_SENDS_PER_DAY,
  newChallenge,
  RESEND_COOLDOWN_MS,
  resendWaitMs,
} from '../../../lambdas/spam/verification-code';

describe('verification codes', () => {
  it('are 6 random digits, stored only as a salted HMAC', () => {
    const codes = new Set(Array.from({ length: 200 }, generateCode));
    for (const code of codes) expect(code).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
    const a = newChallenge('123456', 'call', 0);
    const b = newChallenge('123456', 'call', 0);
    expect(JSON.stringify(a)).not.toContain('123456');
    expect(a.salt).not.toBe(b.salt);
    expect(a.code_hash).not.toBe(b.code_hash);
    expect(a.code_hash).toBe(hashCode(a.salt, '123456'));
  });

  it('match only the exact code', () => {
    const c = newChallenge('042137', 'sms', 0);
    expect(codeMatches(c, '042137')).toBe(true);
    for (const guess of ['42137', '0421370', '042138', ' 042137', '', '04213a', '0x1234']) expect(codeMatches(c, guess)).toBe(false);
  });

  it('expire after 10 minutes and allow 5 guesses', () => {
    const c = newChallenge('111111', 'call', 1_000);
    expect(guessAllowed(c, 1_000)).toBeNull();
    expect(guessAllowed(c, 1_000 + CODE_TTL_MS - 1)).toBeNull();
    expect(guessAllowed(c, 1_000 + CODE_TTL_MS)).toBe('expired');
    expect(guessAllowed({ ...c, attempts: MAX_ATTEMPTS - 1 }, 1_000)).toBeNull();
    expect(guessAllowed({ ...c, attempts: MAX_ATTEMPTS }, 1_000)).toBe('exhausted');
    expect(guessAllowed(null, 1_000)).toBe('missing');
    // A code whose send failed cannot be guessed at all, before the attempts are counted.
    expect(guessAllowed({ ...c, last_sent_at: null }, 1_000)).toBe('unsent');
  });

  it('throttle resends: a cooldown after each send and a daily cap', () => {
    const c = newChallenge('111111', 'call', 0);
    expect(resendWaitMs(c, 1_000)).toBe(RESEND_COOLDOWN_MS - 1_000);
    expect(resendWaitMs(c, RESEND_COOLDOWN_MS)).toBe(0);
    expect(resendWaitMs({ ...c, last_sent_at: null }, 1_000)).toBe(0);
    let chain = c;
    for (let i = 1; i < MAX_SENDS_PER_DAY; i++) chain = newChallenge('1', 'call', i * RESEND_COOLDOWN_MS, chain);
    expect(chain.sends).toHaveLength(MAX_SENDS_PER_DAY);
    const later = MAX_SENDS_PER_DAY * RESEND_COOLDOWN_MS;
    expect(resendWaitMs(chain, later)).toBe(86_400_000 - later);
    // Sends older than a day drop out of the cap.
    const nextDay = 86_400_000 + 2 * RESEND_COOLDOWN_MS + 1;
    expect(resendWaitMs(chain, nextDay)).toBe(0);
    expect(newChallenge('1', 'call', nextDay, chain).sends).toHaveLength(MAX_SENDS_PER_DAY - 2);
  });
});

describe('limits', () => {
  it('is included plus add-ons; null included means no cap', () => {
    expect(effectiveLimit({ spam_included_numbers: 5, spam_addon_numbers: 0 })).toBe(5);
    expect(effectiveLimit({ spam_included_numbers: 5, spam_addon_numbers: 3 })).toBe(8);
    expect(effectiveLimit({ spam_included_numbers: null, spam_addon_numbers: 3 })).toBeNull();
    expect(effectiveLimit({ spam_included_numbers: 0, spam_addon_numbers: -2 })).toBe(0);
    expect(effectiveLimit({ spam_addon_numbers: 1 } as never)).toBe(6);
  });

  it('keeps the oldest numbers in', () => {
    const ordered = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect([...inLimitIds(ordered, 2)]).toEqual(['a', 'b']);
    expect([...inLimitIds(ordered, 0)]).toEqual([]);
    expect([...inLimitIds(ordered, null)]).toEqual(['a', 'b', 'c']);
  });
});

describe('spam.detected edge trigger', () => {
  const flagged = { status: 'completed' as const, spam_detected: true };
  const clean = { status: 'completed' as const, spam_detected: false };
  const failed = { status: 'failed' as const, spam_detected: null };
  it('fires on clean → spam (and on a first test that is flagged), never while flagged or on failures', () => {
    expect(isSpamTransition(undefined, flagged)).toBe(true);
    expect(isSpamTransition(false, flagged)).toBe(true);
    expect(isSpamTransition(true, flagged)).toBe(false);
    expect(isSpamTransition(false, clean)).toBe(false);
    expect(isSpamTransition(undefined, failed)).toBe(false);
  });

  it('over a sequence of days fires once per flagged stretch', () => {
    let state: boolean | undefined;
    let fired = 0;
    for (const day of [flagged, flagged, failed, flagged, clean, clean, flagged, flagged]) {
      if (isSpamTransition(state, day)) fired++;
      if (day.status === 'completed') state = day.spam_detected;
    }
    expect(fired).toBe(2);
  });
});

describe('phone numbers', () => {
  it('normalizes US/CA numbers and refuses the rest', async () => {
    expect(await normalizeUsCaOnDemand('(202) 318-0666')).toMatchObject({ e164: '+12023180666', region: 'US' });
    expect(await normalizeUsCaOnDemand('416 318 0666')).toMatchObject({ e164: '+14163180666', region: 'CA' });
    for (const raw of ['', '123', '+44 20 7183 8750', 'x'.repeat(100), '+1 202 318 066']) expect(await normalizeUsCaOnDemand(raw)).toBeNull();
  });

  it('decides SMS capability from the line type', async () => {
    expect(isSmsCapable((await normalizeUsCaOnDemand('+12023180666'))!.type)).toBe(true);
    expect(isSmsCapable((await normalizeUsCaOnDemand('+18002752273'))!.type)).toBe(false);
    for (const type of ['FIXED_LINE', 'TOLL_FREE', 'PREMIUM_RATE', 'UNKNOWN']) expect(isSmsCapable(type)).toBe(false);
    for (const type of ['MOBILE', 'FIXED_LINE_OR_MOBILE', 'VOIP']) expect(isSmsCapable(type)).toBe(true);
  });
});
