import { describe, expect, it } from 'vitest';
import * as domain from '../../../lambdas/platform/domain-errors';
import { HttpError } from '../../../lambdas/platform/errors';
import { toHttpError } from '../../../lambdas/platform/http/error-response';

// The one table from domain errors to the spec's statuses (spec, Errors): each kind, its status,
// its headers, and the detail passed through unchanged.

describe('domain errors become HTTP in one place', () => {
  it('maps every kind to the status the spec gives it', () => {
    const cases: [domain.DomainError, number][] = [
      [new domain.InvalidInput('bad'), 400],
      [new domain.AuthenticationFailed('API key required'), 401],
      [new domain.InsufficientCredits('Insufficient credits'), 402],
      [new domain.Forbidden('no subscription'), 403],
      [new domain.NotFound(), 404],
      [new domain.Conflict('already monitored'), 409],
      [new domain.Removed('removed'), 410],
      [new domain.TooLarge('too big'), 413],
      [new domain.UnsupportedContentType('text/plain'), 415],
      [new domain.TooFewNumbers({ error: 'min_contacts_required', min: 100, got: 99, message: 'm' }), 422],
      [new domain.RateLimited('slow down', { retryAfterSeconds: 3, limit: 1, remaining: 0, resetAt: 99 }), 429],
      [new domain.UpstreamFailed('not sent'), 502],
      [new domain.NotReady('signing key missing'), 503],
    ];
    // Every exported error class is in the list above, so a new kind cannot go unmapped silently.
    const classes = Object.values(domain).filter((v) => typeof v === 'function' && v.prototype instanceof domain.DomainError);
    expect(new Set(cases.map(([e]) => e.constructor))).toEqual(new Set(classes));
    for (const [error, status] of cases) {
      const http = toHttpError(error)!;
      expect([error.kind, http.status]).toEqual([error.kind, status]);
      expect(http.detail).toEqual(error.detail);
    }
    expect(toHttpError(new domain.NotFound())!.detail).toBe('Not found');
  });

  it('carries the spec headers: Bearer on 401, Retry-After and X-RateLimit-* on 429, nothing else', () => {
    expect(toHttpError(new domain.AuthenticationFailed('x'))!.headers).toEqual({ 'WWW-Authenticate': 'Bearer' });
    expect(toHttpError(new domain.RateLimited({ error: 'rate_limit_exceeded' }, { retryAfterSeconds: 2, limit: 600, remaining: 0, resetAt: 1700000000 }))!.headers).toEqual({
      'Retry-After': '2',
      'X-RateLimit-Limit': '600',
      'X-RateLimit-Remaining': '0',
      'X-RateLimit-Reset': '1700000000',
    });
    expect(toHttpError(new domain.Conflict('x'))!.headers).toEqual({});
  });

  it("keeps the HTTP layer's own errors and leaves anything else to the 500 path", () => {
    const own = new HttpError(405, 'Method not allowed', { Allow: 'GET' });
    expect(toHttpError(own)).toBe(own);
    expect(toHttpError(new Error('boom'))).toBeNull();
    expect(toHttpError('boom')).toBeNull();
  });

  it('a refusal is any domain error but a provider failure', () => {
    expect(domain.isRefusal(new domain.TooFewNumbers({ got: 1 }))).toBe(true);
    expect(domain.isRefusal(new domain.UpstreamFailed('x'))).toBe(false);
    // Not ready is refused before anything is done: claims and drafts are released as for any refusal.
    expect(domain.isRefusal(new domain.NotReady('x'))).toBe(true);
    expect(domain.isRefusal(new Error('x'))).toBe(false);
  });
});
