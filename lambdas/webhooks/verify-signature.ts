import { createHmac, timingSafeEqual } from 'node:crypto';

// For integrators: verify a webhook delivery or a per-contact callback in a receiver. This file
// depends on node:crypto only, so it can be copied into a receiver as it is.

export const DEFAULT_TOLERANCE_SECONDS = 300;

export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  api_version: string;
  created_at: string;
  data: T;
}

export class WebhookVerificationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookVerificationError';
  }
}

export interface VerifyOptions {
  /** Largest allowed difference between the signature timestamp and now (default 300 s). */
  toleranceSeconds?: number;
  /** Current time in Unix seconds (tests); default the system clock. */
  now?: number;
}

/**
 * Checks the `X-Service-Signature` header against the raw request body and returns the parsed
 * event. Pass the body bytes exactly as received: re-serialized JSON does not match.
 * Throws WebhookVerificationError with a message that says what to check.
 */
export function verifyWebhook<T = Record<string, unknown>>(
  rawBody: string | Buffer,
  signatureHeader: string | string[] | undefined | null,
  secret: string,
  options: VerifyOptions = {},
): WebhookEvent<T> {
  if (!secret) throw new WebhookVerificationError('No secret given: pass the 64-hex secret returned when the endpoint was created (or the callback_secret of the contact).');
  if (Array.isArray(signatureHeader)) throw new WebhookVerificationError('Several X-Service-Signature headers were received; expected exactly one.');
  if (!signatureHeader) throw new WebhookVerificationError('Missing X-Service-Signature header: read it from the request headers (header names are case-insensitive).');

  const { timestamp, signatures } = parseHeader(signatureHeader);
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const now = options.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > tolerance) {
    throw new WebhookVerificationError(
      `Signature timestamp ${timestamp} is ${Math.abs(now - timestamp)} s away from now (tolerance ${tolerance} s): check the receiver's clock, or this is a replayed request.`,
    );
  }

  const body = typeof rawBody === 'string' ? Buffer.from(rawBody, 'utf8') : rawBody;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex'), 'utf8');
  const matches = signatures.some((candidate) => {
    const given = Buffer.from(candidate, 'utf8');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (!matches) {
    throw new WebhookVerificationError(
      'No v1 signature matches the body: check that the secret is the one for this endpoint and that the body is the raw bytes received (not parsed and re-serialized JSON).',
    );
  }

  let event: unknown;
  try {
    event = JSON.parse(body.toString('utf8'));
  } catch {
    throw new WebhookVerificationError('The signature is valid but the body is not JSON.');
  }
  if (!event || typeof event !== 'object' || typeof (event as WebhookEvent).id !== 'string' || typeof (event as WebhookEvent).type !== 'string') {
    throw new WebhookVerificationError('The signature is valid but the body is not an event envelope (id, type, api_version, created_at, data).');
  }
  return event as WebhookEvent<T>;
}

/** A valid `X-Service-Signature` value for `body`, for integrators' tests of their receivers. */
export function signatureHeaderFor(body: string | Buffer, secret: string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex')}`;
}

function parseHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const key = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value)) throw new WebhookVerificationError(`X-Service-Signature has a malformed timestamp '${value}': expected t=<unix seconds>.`);
      timestamp = Number(value);
    } else if (key === 'v1') {
      signatures.push(value.toLowerCase());
    }
  }
  if (timestamp === null) throw new WebhookVerificationError('X-Service-Signature has no t=<unix seconds> part: expected "t=<unix>,v1=<hex>".');
  if (signatures.length === 0) throw new WebhookVerificationError('X-Service-Signature has no v1=<hex> signature: expected "t=<unix>,v1=<hex>".');
  return { timestamp, signatures };
}
