import type { Organization } from '../auth/identity-repository';
import { buildEvent } from '../webhooks/events';
import { NUMBER_VERIFIED } from './spam-events';
import { flushOutbox, outboxFields } from '../webhooks/outbox';
import { nowIso, nowMs } from '../platform/clock';
import { Conflict, Forbidden, InvalidInput, RateLimited, UpstreamFailed } from '../platform/domain-errors';
import { newId, sha256Hex } from '../platform/ids';
import { logger } from '../platform/logger';
import { crashPoint } from '../platform/crash-point';
import { effectiveLimit } from './limits';
import {
  claimPhone,
  countAttempt,
  markChallengeUnsent,
  markVerified,
  numberItemKey,
  putNumber,
  releasePhone,
  phoneClaimed,
  releaseSlotOf,
  replaceChallenge,
  reserveSlotFor,
  settleSlot,
  SlotCounterFull,
  type NumberRecord,
} from './number-repository';
import { numberStatus, ownNumber } from './numbers';
import { isSmsCapable, normalizeUsCaOnDemand } from './phone';
import { monitoredNumberView } from './present';
import type { TelephonyPort } from './telephony/port';
import type { SpamNumberPorts } from './ports';
import { codeMatches, CODE_TTL_MS, generateCode, guessAllowed, MAX_ATTEMPTS, newChallenge, RESEND_COOLDOWN_MS, resendThrottle, type ResendThrottle, type VerificationMethod } from './verification-code';
import { counted } from '../platform/counted';

// The spam monitoring API's rules for registering a number: adding it within the limit, sending
// its verification code, verifying it. Loaded by a cold start that serves one of these, not by one
// that lists numbers (numbers.ts).

function instructions(method: VerificationMethod, phone: string, id: string, sent = true): string {
  const then = `Daily monitoring begins once the number is verified.`;
  if (!sent) {
    return `The ${method === 'sms' ? 'text message' : 'call'} with the code to ${phone} could not be made. Request a new code with POST /api/v1/spam/numbers/${id}/verify/resend, then submit it with POST /api/v1/spam/numbers/${id}/verify. ${then}`;
  }
  const how = method === 'sms' ? `We sent a text message with a 6-digit code to ${phone}.` : `We are calling ${phone}; answer to hear a 6-digit code.`;
  return `${how} Submit it with POST /api/v1/spam/numbers/${id}/verify within ${CODE_TTL_MS / 60_000} minutes. ${then}`;
}

async function sendChallengeCode(ports: { readonly telephony: TelephonyPort }, n: Pick<NumberRecord, 'id' | 'phone_number'>, code: string, method: VerificationMethod): Promise<string | null> {
  try {
    await ports.telephony.sendCode({ numberId: n.id, to: n.phone_number, code, method });
    return null;
  } catch (error) {
    logger.warn('verification code not sent', { number_id: n.id, method, error: error as Error });
    return 'The verification code could not be sent; request a new one with verify/resend.';
  }
}

async function parseOr400(raw: string, method: VerificationMethod) {
  const parsed = await normalizeUsCaOnDemand(raw);
  if (!parsed) throw new InvalidInput('phone_number is not a valid US or Canadian phone number');
  const smsCapable = isSmsCapable(parsed.type);
  if (method === 'sms' && !smsCapable) throw new InvalidInput(`sms verification is not available for this number (line type ${parsed.type}); use call`);
  return { ...parsed, smsCapable };
}

export async function addNumber(ports: SpamNumberPorts, org: Organization, input: { phone_number: string; verification_method: VerificationMethod }) {
  const method = input.verification_method;
  const phone = await parseOr400(input.phone_number, method);
  const id = newId();
  const duplicate = () => new Conflict('This phone number is already monitored in your organization');
  // A number already monitored is a 409 before it takes a slot: a duplicate add holding a slot for
  // a moment would make a real add beside it at the limit answer 403.
  if (await phoneClaimed(org.id, phone.e164)) throw duplicate();
  // Slot first, held by name and listed for recovery, then the phone, then the number: a crash
  // between any two leaves a slot whose number never came, which recovery gives back with the
  // phone (docs/reliability.md, lambdas/spam/slot-recovery.ts).
  const limit = effectiveLimit(org);
  const slotAt = nowMs();
  const reserved = await reserveSlotFor(org.id, limit, { numberId: id, phone: phone.e164, at: slotAt }).catch((error: unknown) => {
    if (error instanceof SlotCounterFull) throw new Forbidden('This organization\'s slot counter is full of slots kept from before an upgrade (about 5,600); delete a number, and numbers can be added again once recovery has settled them (within minutes)');
    throw error;
  });
  if (!reserved) {
    // A duplicate is a 409 whatever the limit.
    if (await phoneClaimed(org.id, phone.e164)) throw duplicate();
    throw new Forbidden(`Spam monitoring number limit reached (${limit}); delete a number or purchase add-on numbers`);
  }
  crashPoint('spam.after-slot');
  if (!(await claimPhone(org.id, phone.e164, id))) {
    await releaseSlotOf(org.id, id);
    throw duplicate();
  }
  crashPoint('spam.after-phone');
  const code = generateCode();
  const at = nowIso();
  const record: NumberRecord = {
    id,
    organization_id: org.id,
    phone_number: phone.e164,
    region: phone.region,
    line_type: phone.type,
    sms_capable: phone.smsCapable,
    verified: false,
    verified_at: null,
    carrier: null,
    created_at: at,
    updated_at: at,
    verification: newChallenge(code, method, nowMs()),
    carrier_statuses: {},
    spam_state: {},
    slot_reserved: true,
  };
  try {
    await putNumber(record);
  } catch (error) {
    await releasePhone(org.id, phone.e164, id);
    await releaseSlotOf(org.id, id);
    throw error;
  }
  crashPoint('spam.after-number');
  // The number holds its slot from here: off the counter, which would otherwise grow with every
  // number monitored to DynamoDB's item limit. Left there by a crash, recovery settles it.
  await settleSlot(org.id, id, slotAt);
  const error = await sendChallengeCode(ports, record, code, method);
  if (error) await markChallengeUnsent(id, record.verification!.salt);
  return {
    // Active: its slot was taken below the limit, so fewer numbers than the limit are older than it.
    number: monitoredNumberView(record, 'active', nowMs()),
    verification: { required: true, sent: !error, method, instructions: instructions(method, record.phone_number, id, !error), error },
  };
}

export async function verifyNumber(ports: SpamNumberPorts, org: Organization, id: string, code: string) {
  const n = await ownNumber(org.id, id);
  if (n.verified) throw new InvalidInput('This number is already verified');
  const refused = guessAllowed(n.verification, nowMs());
  if (refused === 'missing') throw new InvalidInput('No verification code is pending; request one with verify/resend');
  if (refused === 'unsent') throw new InvalidInput('The last verification code could not be sent; request a new one with verify/resend');
  if (refused === 'exhausted') throw new InvalidInput('Too many wrong codes; request a new code with verify/resend');
  if (refused === 'expired') throw new InvalidInput('The verification code has expired; request a new one with verify/resend');
  const challenge = n.verification!;
  // Count the guess first: parallel guesses cannot get past the bound.
  // The guesses counted so far, this one with them: what the message says is left of the bound.
  const attempts = await countAttempt(id, challenge.salt, MAX_ATTEMPTS);
  if (attempts === null) {
    const again = await ownNumber(org.id, id);
    if (again.verified) throw new InvalidInput('This number is already verified');
    throw new InvalidInput('Too many wrong codes; request a new code with verify/resend');
  }
  if (!codeMatches(challenge, code.trim())) {
    const left = MAX_ATTEMPTS - attempts;
    throw new InvalidInput(left > 0 ? `Invalid verification code; ${counted(left, 'attempt')} left` : 'Invalid verification code; request a new code with verify/resend');
  }
  const at = nowIso();
  // number.verified is written with the change (outbox) and its id is fixed by the number and the
  // time it was verified, so a re-publication after a crash is the same event.
  const key = numberItemKey(id);
  const event = buildEvent(
    NUMBER_VERIFIED,
    { number_id: id, phone_number: n.phone_number, carrier: n.carrier, status: await numberStatus(org, n), verified_at: at },
    `evt_${sha256Hex(`number.verified:${id}:${at}`).slice(0, 32)}`,
  );
  const verified = await markVerified(id, challenge.salt, at, n.created_at, outboxFields(key, [{ organization_id: org.id, event }], at));
  if (!verified) throw new InvalidInput('This number is already verified');
  await flushOutbox(ports, key);
  return { success: true, verified: true, phone_number: n.phone_number, message: 'Number verified; daily spam monitoring has begun.' };
}

/**
 * Sends a new code by `method`; without one (the console's "Send a new code"), by the method of the
 * number's last code, the one it was added with unless a resend chose another. The API always names
 * one (its body defaults to `call`, as the spec says).
 */
export async function resendCode(ports: SpamNumberPorts, org: Organization, id: string, requested?: VerificationMethod) {
  const n = await ownNumber(org.id, id);
  if (n.verified) throw new InvalidInput('This number is already verified');
  const method = resendMethod(requested, n);
  if (method === 'sms' && !n.sms_capable) throw new InvalidInput(`sms verification is not available for this number (line type ${n.line_type}); use call`);
  const throttle = resendThrottle(n.verification, nowMs());
  if (throttle) throw resendThrottled(throttle);
  const code = generateCode();
  const challenge = newChallenge(code, method, nowMs(), n.verification);
  if (!(await replaceChallenge(id, n.verification?.salt ?? null, challenge, nowIso()))) {
    const again = await ownNumber(org.id, id);
    if (again.verified) throw new InvalidInput('This number is already verified');
    // The other request sent a code just now, so the cooldown starts over.
    throw resendThrottled({ limit: 1, windowSeconds: RESEND_COOLDOWN_MS / 1000, waitMs: RESEND_COOLDOWN_MS }, 'Another code was requested at the same time');
  }
  const error = await sendChallengeCode(ports, n, code, method);
  if (error) {
    await markChallengeUnsent(id, challenge.salt);
    throw new UpstreamFailed('The verification code could not be sent; try again shortly');
  }
  return { success: true, phone_number: n.phone_number, method, message: instructions(method, n.phone_number, id) };
}

/** The method a resend uses: the one asked for, else the last code's, else what the number can take. */
export function resendMethod(requested: VerificationMethod | undefined, n: Pick<NumberRecord, 'verification' | 'sms_capable'>): VerificationMethod {
  return requested ?? n.verification?.method ?? (n.sms_capable ? 'sms' : 'call');
}

/**
 * The resend throttle's 429 (docs/spam-monitoring.md): a string detail, and the headers of the
 * spec's 429 row describing the throttle that refused (not the API key's bucket).
 */
function resendThrottled(throttle: ResendThrottle, reason?: string): RateLimited {
  const seconds = Math.max(1, Math.ceil(throttle.waitMs / 1000));
  const why = reason ?? (throttle.limit === 1 ? 'A code was sent recently' : `${throttle.limit} codes were sent in the last 24 hours`);
  return new RateLimited(`${why}; wait ${seconds} seconds before requesting another`, {
    retryAfterSeconds: seconds,
    limit: throttle.limit,
    remaining: 0,
    resetAt: Math.ceil((nowMs() + throttle.waitMs) / 1000),
  });
}

