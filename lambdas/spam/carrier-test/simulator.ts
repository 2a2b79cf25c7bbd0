import { setTimeout as sleep } from 'node:timers/promises';
import { nowIso } from '../../platform/clock';
import { CARRIERS, type Carrier } from '../carriers';
import { renderCallScreen, type CallScreenInput } from './call-screen';
import type { CarrierTestOutcome, CarrierTestPort, CarrierTestRequest } from './port';

/** What each carrier's handset displays for a flagged call in the simulator. */
export const SIMULATED_LABELS: Record<Carrier, string> = {
  'at&t': 'Suspected Spam',
  't-mobile': 'Scam Likely',
  verizon: 'Potential Spam',
};

/**
 * Deterministic test outcomes for development, demos and tests; every result says `simulated`.
 * Chosen by the number's last four digits (like a payment provider's test cards):
 *
 * | ends in | outcome |
 * | --- | --- |
 * | 0666 | flagged on every carrier, every day |
 * | 0667 | flagged on verizon only, every day |
 * | 0668 | flagged on every carrier on even UTC days (days since 1970-01-01), clean on odd days |
 * | 0669 | the t-mobile test fails (SIP 480, no screenshot); the others are clean |
 * | anything else | clean everywhere |
 *
 * The number's own carrier is its last digit modulo 3 (0 at&t, 1 t-mobile, 2 verizon), unknown for 9.
 */
export function simulatedVerdict(phoneNumber: string, carrier: Carrier, day: string): 'flagged' | 'clean' | 'failed' {
  const suffix = phoneNumber.slice(-4);
  if (suffix === '0666') return 'flagged';
  if (suffix === '0667') return carrier === 'verizon' ? 'flagged' : 'clean';
  if (suffix === '0668') return epochDay(day) % 2 === 0 ? 'flagged' : 'clean';
  if (suffix === '0669' && carrier === 't-mobile') return 'failed';
  return 'clean';
}

export function simulatedOwnCarrier(phoneNumber: string): Carrier | null {
  const last = Number(phoneNumber.slice(-1));
  return last === 9 || Number.isNaN(last) ? null : CARRIERS[last % 3]!;
}

const epochDay = (day: string): number => Math.floor(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

export class SimulatedCarrierTests implements CarrierTestPort {
  readonly name = 'simulator';
  readonly simulated = true;

  /**
   * `delayMs`: how long each test takes, so runs can be exercised at a real lab's call latency.
   * `render`: draws the screenshot (a JPEG encode, ~30 ms of CPU); a test of many runs that never
   * looks at the pictures may hand in a cheaper one.
   */
  constructor(
    private readonly delayMs = 0,
    private readonly render: (input: CallScreenInput) => Buffer = renderCallScreen,
  ) {}

  async runTest(request: CarrierTestRequest): Promise<CarrierTestOutcome> {
    if (this.delayMs > 0) await sleep(this.delayMs);
    const verdict = simulatedVerdict(request.phoneNumber, request.carrier, request.day);
    const originating = simulatedOwnCarrier(request.phoneNumber);
    if (verdict === 'failed') {
      return {
        status: 'failed',
        spam_detected: null,
        spam_label: null,
        sip_response_code: '480',
        caller_id_verified: null,
        originating_carrier: originating,
        screenshot: null,
        captured_at: null,
        error: 'simulated: handset temporarily unavailable',
        simulated: true,
      };
    }
    const flagged = verdict === 'flagged';
    const label = flagged ? SIMULATED_LABELS[request.carrier] : null;
    const capturedAt = nowIso();
    return {
      status: 'completed',
      spam_detected: flagged,
      spam_label: label,
      sip_response_code: '200',
      caller_id_verified: !flagged,
      originating_carrier: originating,
      screenshot: { bytes: this.render({ carrier: request.carrier, phoneNumber: request.phoneNumber, capturedAt, label }), contentType: 'image/jpeg' },
      captured_at: capturedAt,
      error: null,
      simulated: true,
    };
  }
}
