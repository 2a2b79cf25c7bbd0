import { DomainError, type DomainErrorKind, type RateLimited } from '../domain-errors';
import { HttpError } from '../errors';

// The one place a domain error becomes HTTP (spec, Errors: status codes and the 429 headers).

const STATUS: Record<DomainErrorKind, number> = {
  InvalidInput: 400,
  AuthenticationFailed: 401,
  InsufficientCredits: 402,
  Forbidden: 403,
  NotFound: 404,
  Conflict: 409,
  Removed: 410,
  TooLarge: 413,
  UnsupportedContentType: 415,
  TooFewNumbers: 422,
  RateLimited: 429,
  UpstreamFailed: 502,
  NotReady: 503,
};

function headersOf(error: DomainError): Record<string, string> {
  if (error.kind === 'AuthenticationFailed') return { 'WWW-Authenticate': 'Bearer' };
  if (error.kind === 'RateLimited') {
    const { state } = error as RateLimited;
    return {
      'Retry-After': String(state.retryAfterSeconds),
      'X-RateLimit-Limit': String(state.limit),
      'X-RateLimit-Remaining': String(state.remaining),
      'X-RateLimit-Reset': String(state.resetAt),
    };
  }
  return {};
}

export const statusOf = (error: DomainError): number => STATUS[error.kind];

/**
 * The HTTP form of a known failure: a domain error by the table above, an HttpError of the HTTP
 * layer itself as it is; null for anything else (the caller answers 500).
 */
export function toHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DomainError) return new HttpError(statusOf(error), error.detail, headersOf(error));
  return null;
}
