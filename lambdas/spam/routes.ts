import * as z from '../platform/zod';
import { authErrors, timestamp, byIdParams, StringError, pageLimit, queryInteger, rateLimitErrors, RateLimitError } from '../platform/http/common-schemas';
import type { RouteSpec } from '../platform/http/route-spec';
import { carrierSchema, testStatusSchema, verdictFields } from './test-run-fields';
import { CarrierStatus } from './carrier-status';

const OFFSET_MESSAGE = `must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}`;

const CarrierEnum = carrierSchema;
const TestStatus = testStatusSchema;
const Method = z.enum(['call', 'sms']);

export const MonitoredNumber = z.lazySchema(() => z
  .object({
    id: z.string(),
    phone_number: z.string().check(z.describe('E.164, US/CA only')),
    verified: z.boolean(),
    carrier: z.nullable(z.string()).check(z.describe('the number’s own carrier when known')),
    same_carrier_warning: z.boolean(),
    status: z.enum(['active', 'paused']).check(z.describe('active: within the organization’s limit and tested daily once verified; paused: beyond the limit, kept but not tested')),
    created_at: timestamp,
    updated_at: z.nullable(timestamp),
    carrier_statuses: z.array(CarrierStatus),
  })
  .check(z.meta({ id: 'MonitoredNumber' })));

export const TestRunHistoryItem = z.lazySchema(() => z
  .object({
    test_run_id: z.string(),
    carrier: CarrierEnum,
    status: TestStatus,
    screenshot_available: z.boolean(),
    tested_at: timestamp,
    ...verdictFields(),
    error: z.nullable(z.string()).check(z.describe('additive: why a failed test failed (the test lab’s words), null otherwise')),
    simulated: z.boolean(),
  })
  .check(z.meta({ id: 'TestRunHistoryItem' })));

const NumberIdParams = byIdParams('number_id', 'Monitored number not found', 'id of a monitored number of the key’s organization');
const e = (description: string) => ({ description, schema: StringError });
const common = { fn: 'spam' as const, tags: ['spam'], subscription: true };
const noSubscription = e('No active subscription');

export const spamRoutes = {
  add: {
    ...common,
    method: 'POST',
    path: '/api/v1/spam/numbers',
    operationId: 'addSpamNumber',
    summary: 'Register an outbound number for spam monitoring; starts verification',
    rateLimited: true,
    request: {
      body: z.lazySchema(() => z.strictObject({
        phone_number: z.string().check(z.minLength(1), z.maxLength(64)),
        verification_method: z._default(Method, 'call'),
      })),
    },
    responses: {
      201: {
        description: 'Number registered; verification started',
        schema: z.lazySchema(() => z.object({
          number: MonitoredNumber,
          verification: z.object({ required: z.boolean(), sent: z.boolean(), method: Method, instructions: z.string(), error: z.nullable(z.string()) }),
        })),
      },
      400: e('Unparseable or non-US/CA number, or sms for a number that cannot receive texts'),
      ...authErrors,
      403: e('No active subscription, or the spam monitoring number limit is reached'),
      409: e('The number is already monitored in this organization'),
      ...rateLimitErrors,
    },
  },
  verify: {
    ...common,
    method: 'POST',
    path: '/api/v1/spam/numbers/{number_id}/verify',
    operationId: 'verifySpamNumber',
    summary: 'Verify a number with the code it received',
    rateLimited: true,
    request: { params: NumberIdParams, body: z.lazySchema(() => z.strictObject({ code: z.string().check(z.minLength(1), z.maxLength(32)) })) },
    responses: {
      200: { description: 'Verified', schema: z.lazySchema(() => z.object({ success: z.boolean(), verified: z.boolean(), phone_number: z.string(), message: z.string() })) },
      400: e('Wrong, expired or used-up code, or the number is already verified'),
      ...authErrors,
      403: noSubscription,
      404: e('Unknown number'),
      ...rateLimitErrors,
    },
  },
  resend: {
    ...common,
    method: 'POST',
    path: '/api/v1/spam/numbers/{number_id}/verify/resend',
    operationId: 'resendSpamVerification',
    summary: 'Send a new verification code',
    rateLimited: true,
    request: { params: NumberIdParams, body: z.lazySchema(() => z.strictObject({ method: z._default(Method, 'call') })) },
    responses: {
      200: { description: 'Code sent', schema: z.lazySchema(() => z.object({ success: z.boolean(), phone_number: z.string(), method: Method, message: z.string() })) },
      400: e('Already verified, or sms for a number that cannot receive texts'),
      ...authErrors,
      403: noSubscription,
      404: e('Unknown number'),
      429: {
        description: 'A code was sent in the last 30 seconds, or 10 in the last 24 hours (string detail), or the rate limit (object detail); carries Retry-After and X-RateLimit-* of the throttle that refused',
        schema: z.lazySchema(() => z.union([StringError, RateLimitError])),
      },
      502: e('The code could not be sent'),
    },
  },
  list: {
    ...common,
    method: 'GET',
    path: '/api/v1/spam/numbers',
    operationId: 'listSpamNumbers',
    summary: 'Monitored numbers, oldest first, with their latest per-carrier status',
    request: {
      query: z.lazySchema(() => z.object({
        limit: pageLimit(500, 100),
        offset: queryInteger(0, null, OFFSET_MESSAGE, 0),
      })),
    },
    responses: {
      200: { description: 'Page of numbers', schema: z.lazySchema(() => z.object({ numbers: z.array(MonitoredNumber), spam_monitoring_limit: z.nullable(z.number().check(z.int())), total: z.number().check(z.int()) })) },
      400: e('limit or offset out of range'),
      ...authErrors,
      403: noSubscription,
    },
  },
  get: {
    ...common,
    method: 'GET',
    path: '/api/v1/spam/numbers/{number_id}',
    operationId: 'getSpamNumber',
    summary: 'One monitored number with its latest per-carrier status',
    request: { params: NumberIdParams },
    responses: { 200: { description: 'The number', schema: MonitoredNumber }, ...authErrors, 403: noSubscription, 404: e('Unknown number') },
  },
  history: {
    ...common,
    method: 'GET',
    path: '/api/v1/spam/numbers/{number_id}/history',
    operationId: 'getSpamNumberHistory',
    summary: 'Test runs of the last 7 days, newest first',
    request: { params: NumberIdParams },
    responses: {
      200: {
        description: 'History',
        schema: z.lazySchema(() => z.object({ number_id: z.string(), phone_number: z.string(), results: z.array(TestRunHistoryItem), total: z.number().check(z.int()) })),
      },
      ...authErrors,
      403: noSubscription,
      404: e('Unknown number'),
    },
  },
  screenshot: {
    ...common,
    method: 'GET',
    path: '/api/v1/spam/numbers/{number_id}/screenshot',
    operationId: 'getSpamNumberScreenshot',
    summary: 'Screenshot of the latest test on a carrier (or the most recent across carriers), raw image bytes',
    request: { params: NumberIdParams, query: z.lazySchema(() => z.object({ carrier: z.optional(CarrierEnum) })) },
    responses: {
      200: { description: 'Image bytes; check Content-Type', contentType: 'image/jpeg' },
      400: e('Unknown carrier'),
      ...authErrors,
      403: noSubscription,
      404: e('Unknown number, or no screenshot in the last 7 days'),
    },
  },
  delete: {
    ...common,
    method: 'DELETE',
    path: '/api/v1/spam/numbers/{number_id}',
    operationId: 'deleteSpamNumber',
    summary: 'Stop monitoring: the number, its history and screenshots are removed from the service',
    rateLimited: true,
    request: { params: NumberIdParams },
    responses: {
      200: { description: 'Removed', schema: z.lazySchema(() => z.object({ success: z.boolean(), number_id: z.string(), phone_number: z.string(), message: z.string() })) },
      ...authErrors,
      403: noSubscription,
      404: e('Unknown number'),
      409: e('Another request is deleting this number (or one was interrupted less than 5 minutes ago)'),
      ...rateLimitErrors,
    },
  },
} satisfies Record<string, RouteSpec>;
