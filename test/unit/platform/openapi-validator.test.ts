import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../../../lambdas/api/openapi-document';
import { responseValidator } from '../../support/openapi-validator';

// The response validator must fail on what the document does not describe, or its green run over
// real requests (test/integration/platform/openapi-responses.test.ts) would prove nothing.
const validator = responseValidator(openApiDocument());
const headers = (h: Record<string, string>) => new Headers({ 'content-type': 'application/json', 'x-request-id': 'r1', ...h });
const json = (body: unknown) => Buffer.from(JSON.stringify(body));
const balance = { total: 3, subscription: 1, purchased: 2 };

describe('the response validator', () => {
  it('passes a documented response', () => {
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 200, headers: headers({}), body: json(balance) })).toEqual([]);
  });

  it('fails an undocumented path, operation or status', () => {
    expect(validator.check('GET', '/api/v1/nowhere', { status: 200, headers: headers({}), body: json({}) })).toEqual(['GET /api/v1/nowhere → 200: no such path in the document']);
    expect(validator.check('PUT', '/api/v1/credits/balance', { status: 200, headers: headers({}), body: json({}) })[0]).toMatch(/no such operation/);
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 418, headers: headers({}), body: json({ detail: 'x' }) })[0]).toMatch(/status not documented/);
  });

  it('fails a service header the response does not list, and a required one that is missing', () => {
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 200, headers: headers({ 'idempotent-replayed': 'true' }), body: json(balance) })).toEqual([
      'GET /api/v1/credits/balance → 200: header idempotent-replayed not documented for this response',
    ]);
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 401, headers: headers({}), body: json({ detail: 'API key required' }) })).toEqual([
      'GET /api/v1/credits/balance → 401: documented required header www-authenticate missing',
    ]);
    const problems = validator.check('POST', '/api/v2/contacts', { status: 429, headers: headers({ 'retry-after': 'soon', 'x-ratelimit-limit': '1', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' }), body: json({ detail: { error: 'rate_limit_exceeded', scope: 'per_key', limit: 1, retry_after_seconds: 1 } }) });
    expect(problems).toEqual([expect.stringMatching(/header retry-after=soon: .*integer/)]);
  });

  it('fails a body that does not match: a missing field, an extra field, a value outside an enum, a timestamp that is not one', () => {
    const { total: _t, ...missing } = balance;
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 200, headers: headers({}), body: json(missing) })[0]).toMatch(/must have required property 'total'/);
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 200, headers: headers({}), body: json({ ...balance, extra: 1 }) })[0]).toMatch(/must NOT have additional properties/);
    const webhook = { id: '00000000-0000-4000-8000-000000000001', url: 'https://example.com', description: null, events: ['upload.completed'], is_active: true, verified_at: null, last_success_at: null, last_failure_at: null, consecutive_failures: 0, disabled_at: null, created_at: '2026-11-25T00:00:00.000Z', updated_at: '2026-11-25T00:00:00.000Z' };
    expect(validator.check('GET', `/api/v1/webhooks/${webhook.id}`, { status: 200, headers: headers({}), body: json(webhook) })).toEqual([]);
    expect(validator.check('GET', `/api/v1/webhooks/${webhook.id}`, { status: 200, headers: headers({}), body: json({ ...webhook, events: ['upload.deleted'] }) })[0]).toMatch(/must be equal to one of the allowed values/);
    expect(validator.check('GET', `/api/v1/webhooks/${webhook.id}`, { status: 200, headers: headers({}), body: json({ ...webhook, created_at: 'yesterday' }) })[0]).toMatch(/must match format "date-time"/);
  });

  it('fails a content type the response does not list, and a body where none is documented', () => {
    expect(validator.check('GET', '/api/v1/credits/balance', { status: 200, headers: headers({ 'content-type': 'text/html' }), body: Buffer.from('<html>') })[0]).toMatch(/content type 'text\/html' not documented/);
    expect(validator.check('DELETE', '/api/v1/webhooks/00000000-0000-4000-8000-000000000001', { status: 204, headers: headers({}), body: json({}) })[0]).toMatch(/a body .* where the document says none/);
  });

  it('fails an event body that does not match its webhooks entry, or an event type the section lacks', () => {
    const ping = { id: 'evt_0123abcd', type: 'webhook.ping', api_version: '2026-04-23', created_at: '2026-11-25T00:00:00.000Z', data: { challenge: 'abc' } };
    expect(validator.checkEvent(JSON.stringify(ping))).toEqual([]);
    expect(validator.checkEvent(JSON.stringify({ ...ping, data: {} }))[0]).toMatch(/must have required property 'challenge'/);
    expect(validator.checkEvent(JSON.stringify({ ...ping, id: 'nope' }))[0]).toMatch(/must match pattern/);
    expect(validator.checkEvent(JSON.stringify({ ...ping, type: 'upload.deleted' }))).toEqual(['event type upload.deleted is not in the webhooks section']);
  });
});
