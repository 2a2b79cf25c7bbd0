// Spam monitoring in people's words: what a code's send did, why a carrier test failed, and the
// API's refusals without its paths (the API's texts name `verify/resend`; the page has a button).

export type Method = 'sms' | 'call';

const CODE_MINUTES = 10;

/** After adding a number or asking for a new code. */
export function codeSentMessage(method: Method, phone: string, sent: boolean): string {
  if (!sent) return `We could not ${method === 'sms' ? 'text' : 'call'} ${phone}. Use “Send a new code” to try again.`;
  return method === 'sms'
    ? `We sent a text message with a 6-digit code to ${phone}. Enter it here within ${CODE_MINUTES} minutes.`
    : `We are calling ${phone}: answer to hear a 6-digit code, then enter it here within ${CODE_MINUTES} minutes.`;
}

/** The API's refusals for a code, with the button's name where the API names its path. */
export function plainCodeError(message: string): string {
  return message
    .replace(/;?\s*request (?:one|a new one|a new code) with verify\/resend\.?/i, '. Use “Send a new code” to get another.')
    .replace(/\.\s*\./g, '.')
    .replace(/ \./g, '.');
}

const SIP_REASONS: Record<string, string> = {
  '403': 'the carrier rejected the call',
  '603': 'the carrier rejected the call',
  '404': 'the carrier could not reach the test phone',
  '604': 'the carrier could not reach the test phone',
  '408': 'the test phone did not answer',
  '480': 'the test phone on this carrier was unavailable',
  '486': 'the test phone was busy',
  '600': 'the test phone was busy',
};

/** Why a carrier test failed, in words; the lab's own words follow when they add something. */
export function failureReason(error: string | null, sipResponseCode: string | null): string {
  const sip = sipResponseCode ? SIP_REASONS[sipResponseCode] : undefined;
  const text = (error ?? '').replace(/^simulated:\s*/i, '').trim();
  let reason: string;
  if (sip) reason = sip;
  else if (/timed? ?out|timeout|took too long/i.test(text)) reason = 'the test call took too long';
  else if (/device lab|answered \d{3}|fetch failed|ECONN|ENOTFOUND/i.test(text)) reason = 'the test lab could not place the call';
  else if (text) reason = text;
  else reason = 'the test call could not be completed';
  return `${reason[0]!.toUpperCase()}${reason.slice(1)}. The next daily test tries again.`;
}

/** The spec's caveat: a test from the number's own carrier may be skewed. */
export const SAME_CARRIER_WARNING = 'Tested from this number’s own carrier, so this result may not match what customers of other carriers see.';

/** The caveat for a number, naming the carriers whose latest test ran from its own carrier. */
export const sameCarrierWarning = (carriers: string[]): string =>
  `The ${carriers.join(' and ')} test ran from this number’s own carrier, so its result may not match what customers of other carriers see.`;
