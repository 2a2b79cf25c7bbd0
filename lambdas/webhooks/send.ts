import { nowUnix } from '../platform/clock';
import { safePost, type PostOutcome } from '../platform/net/safe-post';
import type { OutboundNet } from '../platform/net/outbound';
import { signatureHeader } from './signature';

export const USER_AGENT = 'Service-Webhooks/1.0';

export interface SendInput {
  url: string;
  secret: string;
  /** The serialized envelope; the same bytes on every attempt. */
  body: string;
  eventType: string;
  eventId: string;
  deliveryId: string;
  attempt: number;
}

/** Every header of the spec's "Delivery headers", signed now (not when queued). */
export function deliveryHeaders(input: Omit<SendInput, 'url'>, timestamp: number): Record<string, string> {
  return {
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
    'x-service-signature': signatureHeader(input.body, input.secret, timestamp),
    'x-service-event': input.eventType,
    'x-service-event-id': input.eventId,
    'x-service-delivery-id': input.deliveryId,
    'x-service-attempt': String(input.attempt),
    'x-service-timestamp': String(timestamp),
  };
}

/** One signed POST under the URL-safety rules. */
export async function sendSigned(net: OutboundNet, input: SendInput): Promise<PostOutcome> {
  return safePost(net, input.url, input.body, deliveryHeaders(input, nowUnix()));
}
