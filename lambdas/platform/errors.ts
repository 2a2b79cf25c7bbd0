import type { ErrorDetail } from './domain-errors';

// The HTTP layer's own error: a status, the spec's `{ "detail": ... }` and headers. Only the HTTP
// layer (lambdas/api/, lambdas/platform/http/, the function entries that answer HTTP) builds one;
// everything else throws a domain error (./domain-errors.ts), which http/error-response.ts maps.
export type { ErrorDetail };

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly detail: ErrorDetail,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
    this.name = 'HttpError';
  }
}
