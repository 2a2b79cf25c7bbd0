import * as z from '../zod';
import { isJsonObject } from '../json-text';

/**
 * A free-form JSON object from a customer, passed on as parsed: every key kept as an own key,
 * `__proto__` and `constructor` included (z.record copies into a new object by assignment, which
 * drops `__proto__`). Documented as an object with any properties.
 */
export const freeFormObject = (error: string) =>
  z.custom<Record<string, unknown>>(isJsonObject, { error }).check(z.meta({ type: 'object', propertyNames: { type: 'string' }, additionalProperties: {} } as Record<string, unknown>));

/** An ISO 8601 UTC timestamp, as every `*_at` field is (`format: date-time` in the document). */
export const timestamp = z.string().check(z.meta({ format: 'date-time' }));

/** An error whose `detail` is a string: most errors. */
export const StringError = z.lazySchema(() =>
  z.object({ detail: z.string() }).check(z.meta({ id: 'StringError', description: 'An error with a human-readable `detail` string.' })),
);

/** A failure of the platform in front of the function (API Gateway's own body), or of the function. */
const GatewayError = z.lazySchema(() =>
  z
    .object({ message: z.string() })
    .check(z.meta({ id: 'GatewayError', description: 'Answered by API Gateway itself (deployed only), before or instead of the service: e.g. `{"message":"Service Unavailable"}`.' })),
);

export const ServerError = z.lazySchema(() => z.union([StringError, GatewayError]).check(z.meta({ id: 'ServerError' })));

/** A body too large: the service's envelope (locally, and from a function), or API Gateway's own JSON (a Lambda event over 6 MB). */
export const TooLargeError = z.lazySchema(() => z.union([StringError, GatewayError]).check(z.meta({ id: 'TooLargeError' })));

export const ErrorEnvelope = z.lazySchema(() =>
  z
    .object({ detail: z.union([z.string(), z.record(z.string(), z.unknown())]) })
    .check(z.meta({ id: 'Error', description: 'Every error: a `detail` string, or an object nested under `detail`.' })),
);

export const RateLimitError = z.lazySchema(() =>
  z
    .object({
      detail: z.object({
        error: z.literal('rate_limit_exceeded'),
        scope: z.enum(['per_key', 'per_org']),
        limit: z.number().check(z.int()),
        retry_after_seconds: z.number().check(z.int()),
      }),
    })
    .check(z.meta({ id: 'RateLimitError' })),
);

/** Standard error responses shared by authenticated routes. */
export const authErrors = {
  401: { description: 'Authentication failed (see Authentication); carries WWW-Authenticate: Bearer', schema: StringError },
} as const;

export const rateLimitErrors = {
  429: { description: 'Rate limit exceeded; carries Retry-After and X-RateLimit-* headers', schema: RateLimitError },
} as const;

/**
 * Path parameters of a by-id route: one UUID named `name`. An id that is not a UUID names no
 * resource, so it is answered exactly like an unknown id: 404 with `notFoundDetail` (the api handler
 * turns any path-parameter failure into a 404 carrying the message). docs/architecture.md
 * says why 404 rather than 400.
 */
export function byIdParams<K extends string>(name: K, notFoundDetail: string, description: string) {
  // Ids are stored lower-case; a UUID is the same UUID in either case (RFC 9562).
  const params = () => {
    const id = z.string().check(z.toLowerCase(), z.uuid({ message: notFoundDetail }), z.describe(description));
    return z.object({ [name]: id } as { [P in K]: typeof id });
  };
  return z.lazySchema(params);
}

/**
 * A list's `limit` query parameter: an integer from 1 to `max`, `fallback` when absent. Any other
 * value (empty, `5,7` from a repeated parameter, which API Gateway joins with a comma, a fraction)
 * gets the one message that says what is accepted.
 */
export function pageLimit(max: number, fallback: number) {
  return queryInteger(1, max, `must be an integer from 1 to ${max}`, fallback);
}

/**
 * A query parameter holding a whole number from `min` to `max` (no bound when null), written in
 * decimal digits only: JavaScript's Number() would also take '', ' ', '0x10', '0b11' and '1e3'.
 * `fallback` when absent. The OpenAPI document shows it as the integer it is (meta
 * `x-query-integer`, read by openapi.ts), not as the string a query string carries.
 */
export function queryInteger(min: number, max: number | null, message: string, fallback: number) {
  const digits = z.pipe(z.string().check(z.regex(/^[0-9]{1,16}$/, { error: message })), z.transform((text: string) => Number(text)));
  const integer = z.pipe(digits, z.number().check(z.int({ error: message }), z.gte(min, { error: message }), ...(max === null ? [] : [z.lte(max, { error: message })])));
  return z._default(integer, fallback).check(z.meta({ 'x-query-integer': { type: 'integer', minimum: min, ...(max === null ? {} : { maximum: max }), default: fallback } }));
}
