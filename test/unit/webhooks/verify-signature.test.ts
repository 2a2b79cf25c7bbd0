import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { signatureHeaderFor, verifyWebhook, WebhookVerificationError } from '../../../lambdas/webhooks/verify-signature';
import { deliveryHeaders } from '../../../lambdas/webhooks/send';

// An independent reading of the spec's scheme, written from the spec text only: HMAC-SHA256 over
// "<t>.<raw body>", lowercase hex, header "t=<unix>,v1=<hex>", 300 s tolerance.
function referenceSign(body: string, secret: string, t: number): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'));
  mac.update(Buffer.from(String(t) + '.' + body, 'utf8'));
  return 't=' + t + ',v1=' + mac.digest('hex');
}
function referenceVerify(body: string, header: string, secret: string, now: number): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(now - t) > 300) return false;
  const expected = Buffer.from(referenceSign(body, secret, t).split('v1=')[1]!, 'hex');
  const given = Buffer.from(parts.v1 ?? '', 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}

const secret = 'a'.repeat(64);
const body = JSON.stringify({ id: 'evt_0123', type: 'upload.completed', api_version: '2026-04-23', created_at: '2026-06-01T00:00:00.000Z', data: { upload: { id: 'u', name: 'café ✓' } } });
const t = 1_780_000_000;

describe('verifyWebhook / signatureHeaderFor', () => {
  it('agrees with the independent implementation in both directions', () => {
    expect(signatureHeaderFor(body, secret, t)).toBe(referenceSign(body, secret, t));
    expect(verifyWebhook(body, referenceSign(body, secret, t), secret, { now: t + 299 }).id).toBe('evt_0123');
    expect(referenceVerify(body, signatureHeaderFor(body, secret, t), secret, t - 300)).toBe(true);
  });

  it('signs what the service sends: the delivery headers verify with the reference', () => {
    const headers = deliveryHeaders({ secret, body, eventType: 'upload.completed', eventId: 'evt_0123', deliveryId: 'dlv_1', attempt: 3 }, t);
    expect(referenceVerify(body, headers['x-service-signature']!, secret, t)).toBe(true);
    expect(headers['x-service-timestamp']).toBe(String(t));
    expect(headers['x-service-attempt']).toBe('3');
  });

  it('accepts a Buffer body and a header with several v1 values (secret rotation on the receiver side)', () => {
    const header = `t=${t},v1=${'0'.repeat(64)},v1=${signatureHeaderFor(body, secret, t).split('v1=')[1]}`;
    expect(verifyWebhook(Buffer.from(body), header, secret, { now: t }).type).toBe('upload.completed');
  });

  const reject = (fn: () => unknown, message: RegExp) => {
    expect(fn).toThrow(WebhookVerificationError);
    expect(fn).toThrow(message);
  };

  it('says what to check when verification fails', () => {
    const header = signatureHeaderFor(body, secret, t);
    reject(() => verifyWebhook(body, header, secret, { now: t + 301 }), /clock|replayed/);
    reject(() => verifyWebhook(body, header, secret, { now: t - 301 }), /tolerance 300 s/);
    expect(verifyWebhook(body, header, secret, { now: t + 1000, toleranceSeconds: 1000 }).id).toBe('evt_0123');
    reject(() => verifyWebhook(body, header, 'b'.repeat(64), { now: t }), /secret/);
    reject(() => verifyWebhook(body.replace('u"', 'v"'), header, secret, { now: t }), /raw bytes/);
    reject(() => verifyWebhook(JSON.stringify(JSON.parse(body), null, 2), header, secret, { now: t }), /re-serialized/);
    reject(() => verifyWebhook(body, undefined, secret, { now: t }), /Missing X-Service-Signature/);
    reject(() => verifyWebhook(body, [header, header], secret, { now: t }), /exactly one/);
    reject(() => verifyWebhook(body, `v1=${header.split('v1=')[1]}`, secret, { now: t }), /no t=/);
    reject(() => verifyWebhook(body, `t=${t}`, secret, { now: t }), /no v1=/);
    reject(() => verifyWebhook(body, `t=abc,v1=00`, secret, { now: t }), /malformed timestamp/);
    reject(() => verifyWebhook(body, header, '', { now: t }), /No secret/);
    reject(() => verifyWebhook(body, header.replace(/v1=.{4}/, 'v1=ffff'), secret, { now: t }), /No v1 signature matches/);
    const notEvent = '[1,2]';
    reject(() => verifyWebhook(notEvent, signatureHeaderFor(notEvent, secret, t), secret, { now: t }), /not an event envelope/);
    reject(() => verifyWebhook('nope', signatureHeaderFor('nope', secret, t), secret, { now: t }), /not JSON/);
  });
});
