// The refusals the service's rules can make, named with the spec's words (spec, Errors). Nothing
// here knows HTTP: the HTTP layer (lambdas/platform/http/error-response.ts) gives each kind its
// status, headers and the `{ "detail": ... }` envelope, in one table.

/** What the client is told: a string, or the spec's object shapes (rate limit, too few numbers, ping failure). */
export type ErrorDetail = string | Record<string, unknown>;

export abstract class DomainError extends Error {
  abstract readonly kind: DomainErrorKind;

  constructor(readonly detail: ErrorDetail) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = new.target.name;
  }
}

/** A kind whose detail may be a string or one of the spec's object shapes. */
function withDetail<K extends DomainErrorKind>(kind: K) {
  return class extends DomainError {
    readonly kind: K = kind;
  };
}

/** A kind whose detail is always a string (the spec gives them no object shape). */
function withTextDetail<K extends DomainErrorKind>(kind: K) {
  return class extends DomainError {
    readonly kind: K = kind;
    constructor(detail: string) {
      super(detail);
    }
  };
}

/** Malformed input or a violated constraint. */
export class InvalidInput extends withDetail('InvalidInput') {}

/** The caller could not be authenticated (missing, malformed, revoked key; no session). */
export class AuthenticationFailed extends withTextDetail('AuthenticationFailed') {}

/** The balance does not cover the charge. */
export class InsufficientCredits extends withTextDetail('InsufficientCredits') {}

/** Authenticated but not allowed: no active subscription, a limit reached, a missing scope. */
export class Forbidden extends withTextDetail('Forbidden') {}

/** Absent, or belonging to another organization (not distinguished). */
export class NotFound extends DomainError {
  readonly kind = 'NotFound';
  constructor(detail = 'Not found') {
    super(detail);
  }
}

/** The request collides with the current state (already monitored, key reused, not ready yet). */
export class Conflict extends withDetail('Conflict') {}

/** Gone for good: an operation the interface removed (DELETE on an upload), or a stored file no longer there (a download's, a draft's). */
export class Removed extends withTextDetail('Removed') {}

/** Over a size limit (CSV bytes, entries per upload, body bytes). */
export class TooLarge extends withTextDetail('TooLarge') {}

/** A Content-Type the operation does not take. */
export class UnsupportedContentType extends withTextDetail('UnsupportedContentType') {}

/** Fewer valid numbers than the minimum (`min_contacts_required`). */
export class TooFewNumbers extends withDetail('TooFewNumbers') {}

/** What a client needs to back off: the wait and the state of the bucket that refused. */
export interface RateLimitState {
  retryAfterSeconds: number;
  limit: number;
  remaining: number;
  /** Epoch seconds at which the bucket is full again. */
  resetAt: number;
}

/** A rate limit or throttle refused the call; `state` says how long to wait. */
export class RateLimited extends DomainError {
  readonly kind = 'RateLimited';
  constructor(
    detail: ErrorDetail,
    readonly state: RateLimitState,
  ) {
    super(detail);
  }
}

/** A provider the request depends on failed (a verification code that could not be sent). */
export class UpstreamFailed extends withTextDetail('UpstreamFailed') {}

/** The service cannot complete this now (a secret it needs is not in place): nothing was charged; safe to retry. */
export class NotReady extends withTextDetail('NotReady') {}

export type DomainErrorKind =
  | 'InvalidInput'
  | 'AuthenticationFailed'
  | 'InsufficientCredits'
  | 'Forbidden'
  | 'NotFound'
  | 'Conflict'
  | 'Removed'
  | 'TooLarge'
  | 'UnsupportedContentType'
  | 'TooFewNumbers'
  | 'RateLimited'
  | 'UpstreamFailed'
  | 'NotReady';

/**
 * A refusal of the request before anything was done (the client can change something, or retry
 * once the service is ready), not a failure of ours part-way.
 */
export function isRefusal(error: unknown): error is DomainError {
  return error instanceof DomainError && error.kind !== 'UpstreamFailed';
}
