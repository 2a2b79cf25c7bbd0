import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

// Verification codes: 6 random digits, stored only as HMAC-SHA256 under a per-challenge salt, valid
// for 10 minutes and for at most 5 guesses; after that a new code must be requested. Resends are
// throttled so the endpoint cannot be used to flood a phone.

export const CODE_TTL_MS = 10 * 60 * 1000;
export const MAX_ATTEMPTS = 5;
export const RESEND_COOLDOWN_MS = 30 * 1000;
export const MAX_SENDS_PER_DAY = 10;
const DAY_MS = 24 * 60 * 60 * 1000;

export type VerificationMethod = 'call' | 'sms';

export interface Challenge {
  method: VerificationMethod;
  salt: string;
  code_hash: string;
  expires_at: number;
  attempts: number;
  /** Last successful send (epoch ms), or null when the send failed. */
  last_sent_at: number | null;
  /** Send timestamps within the last day (epoch ms), for the daily cap. */
  sends: number[];
}

export const generateCode = (): string => String(randomInt(0, 1_000_000)).padStart(6, '0');

export const hashCode = (salt: string, code: string): string => createHmac('sha256', salt).update(code).digest('hex');

export function newChallenge(code: string, method: VerificationMethod, nowMs: number, previous?: Challenge | null): Challenge {
  const salt = randomBytes(16).toString('hex');
  return {
    method,
    salt,
    code_hash: hashCode(salt, code),
    expires_at: nowMs + CODE_TTL_MS,
    attempts: 0,
    last_sent_at: nowMs,
    sends: [...(previous?.sends ?? []).filter((t) => t > nowMs - DAY_MS), nowMs],
  };
}

export type CodeCheck = 'ok' | 'wrong' | 'expired' | 'exhausted' | 'missing' | 'unsent';

/** Whether a guess may be checked at all (before the attempt is counted). */
export function guessAllowed(challenge: Challenge | null | undefined, nowMs: number): Exclude<CodeCheck, 'ok' | 'wrong'> | null {
  if (!challenge) return 'missing';
  // Nobody can know a code whose send failed; a guess would only use up an attempt.
  if (challenge.last_sent_at === null) return 'unsent';
  if (challenge.attempts >= MAX_ATTEMPTS) return 'exhausted';
  if (nowMs >= challenge.expires_at) return 'expired';
  return null;
}

export function codeMatches(challenge: Challenge, code: string): boolean {
  if (!/^\d{6}$/.test(code)) return false;
  const expected = Buffer.from(challenge.code_hash, 'hex');
  const actual = Buffer.from(hashCode(challenge.salt, code), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** Which resend throttle refuses a send now: its size (sends per window) and the wait until it allows one. */
export interface ResendThrottle {
  /** 1 for the cooldown (one send per RESEND_COOLDOWN_MS), MAX_SENDS_PER_DAY for the daily cap. */
  limit: number;
  windowSeconds: number;
  waitMs: number;
}

/** The throttle that refuses a send now (the daily cap before the cooldown), or null when a send is allowed. */
export function resendThrottle(challenge: Challenge | null | undefined, nowMs: number): ResendThrottle | null {
  if (!challenge) return null;
  const recent = challenge.sends.filter((t) => t > nowMs - DAY_MS);
  if (recent.length >= MAX_SENDS_PER_DAY) return { limit: MAX_SENDS_PER_DAY, windowSeconds: DAY_MS / 1000, waitMs: Math.min(...recent) + DAY_MS - nowMs };
  if (challenge.last_sent_at !== null && nowMs - challenge.last_sent_at < RESEND_COOLDOWN_MS) {
    return { limit: 1, windowSeconds: RESEND_COOLDOWN_MS / 1000, waitMs: challenge.last_sent_at + RESEND_COOLDOWN_MS - nowMs };
  }
  return null;
}

/** Milliseconds until another code may be sent, or 0 when it may be sent now. */
export function resendWaitMs(challenge: Challenge | null | undefined, nowMs: number): number {
  return resendThrottle(challenge, nowMs)?.waitMs ?? 0;
}
