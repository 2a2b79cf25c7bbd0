import { createHmac } from 'node:crypto';

/** Lowercase-hex HMAC-SHA256 of `<timestamp>.<raw body>` (spec, Signature). */
export const computeSignature = (body: string | Buffer, secret: string, timestamp: number): string =>
  createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');

export const signatureHeader = (body: string | Buffer, secret: string, timestamp: number): string =>
  `t=${timestamp},v1=${computeSignature(body, secret, timestamp)}`;
