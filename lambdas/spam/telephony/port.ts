import type { VerificationMethod } from '../verification-code';

/** Delivers a verification code to a phone by voice call or text message. */
export interface TelephonyPort {
  readonly name: string;
  sendCode(input: { numberId: string; to: string; code: string; method: VerificationMethod }): Promise<{ messageId: string }>;
}

/** The code could not be handed to the carrier network; the API answers 502 on resend. */
export class TelephonyError extends Error {
  override name = 'TelephonyError';
}

export const messageText = (code: string): string => `Your phone validation service verification code is ${code}. It expires in 10 minutes.`;

/** SSML that reads the digits one by one, twice, for a voice call. */
export function voiceSsml(code: string): string {
  const digits = code.split('').join(' ');
  const say = `<say-as interpret-as="digits">${digits}</say-as>`;
  return `<speak>Your verification code is ${say}. Again, your code is ${say}.</speak>`;
}
