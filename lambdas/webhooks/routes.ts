import * as z from '../platform/zod';
import { authErrors, timestamp, byIdParams, StringError, pageLimit, rateLimitErrors } from '../platform/http/common-schemas';
import type { RouteSpec } from '../platform/http/route-spec';
import { EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from './envelope';

// Validated by the endpoint rules (their 400 names the unknown type); described as the enum it is.
const EventList = z.lazySchema(() => z.array(z.string().check(z.meta({ enum: [...SUBSCRIBABLE_EVENT_TYPES] }))).check(z.maxLength(50), z.describe(`Event types; any of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`)));

export const WebhookEndpointSchema = z.lazySchema(() => z
  .object({
    id: z.string().check(z.uuid()),
    url: z.string(),
    description: z.nullable(z.string()),
    events: z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES)),
    is_active: z.boolean(),
    verified_at: z.nullable(timestamp),
    last_success_at: z.nullable(timestamp),
    last_failure_at: z.nullable(timestamp),
    consecutive_failures: z.number().check(z.int()),
    disabled_at: z.nullable(timestamp),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'WebhookEndpoint' })));

const PingFailed = z.lazySchema(() => z
  .object({
    detail: z.object({
      error: z.literal('ping_failed'),
      message: z.string(),
      status_code: z.nullable(z.number().check(z.int())),
      underlying_error: z.nullable(z.string()),
    }),
  })
  .check(z.meta({ id: 'PingFailedError' })));

const WebhookDeliverySchema = z.lazySchema(() => z
  .object({
    id: z.string().check(z.describe('Delivery id; the X-Service-Delivery-Id header of every attempt')),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.enum(EVENT_TYPES),
    state: z.enum(['pending', 'succeeded', 'exhausted']),
    attempt_count: z.number().check(z.int()),
    attempts: z.array(
      z.object({
        attempt: z.number().check(z.int()),
        attempted_at: timestamp,
        status_code: z.nullable(z.number().check(z.int())).check(z.describe('null when no response arrived')),
        error: z.nullable(z.string()).check(z.describe('network, timeout or URL-safety error')),
      }),
    ),
    next_attempt_at: z.nullable(timestamp),
    exhausted_reason: z.nullable(z.string()).check(z.describe('set when the delivery ended without a further attempt (endpoint deleted or inactive)')),
    redelivered_at: z.optional(z.nullable(timestamp)).check(z.describe('Extension (not in the interface spec): when an owner last sent this delivery again (POST …/deliveries/{delivery_id}/redeliver); null if never')),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .check(z.meta({ id: 'WebhookDelivery' })));

export const DeliveryParams = z.lazySchema(() => z.object({
  webhook_id: z.builtSchema(byIdParams('webhook_id', 'Webhook endpoint not found', 'id of a webhook endpoint of the key’s organization')).shape.webhook_id,
  // Its shape is checked by the use case after the endpoint (redeliver.ts), so a malformed delivery
  // id under an unknown endpoint answers as an unknown endpoint does, like every by-id route.
  delivery_id: z.string().check(z.maxLength(200, { message: 'Delivery not found' }), z.describe('id of a delivery of that endpoint (`dlv_…`)')),
}));

const Params = byIdParams('webhook_id', 'Webhook endpoint not found', 'id of a webhook endpoint of the key’s organization');

const common = { fn: 'webhooks' as const, tags: ['webhooks'], scope: 'webhooks:manage' as const };
const invalid = { 400: { description: 'Invalid input, URL refused or ping failed', schema: z.lazySchema(() => z.union([StringError, PingFailed])) } };
const missing = { 404: { description: 'No such endpoint in the key’s organization', schema: StringError } };
const duplicate = { 409: { description: 'The organization already has an endpoint for this URL (the detail names it); nothing was pinged or saved', schema: StringError } };

export const webhooksRoutes = {
  create: {
    ...common,
    method: 'POST',
    path: '/api/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Register an endpoint (sends a synchronous webhook.ping; saved only on 2xx)',
    rateLimited: true,
    request: {
      body: z.lazySchema(() => z
        .strictObject({
          url: z.string().check(z.minLength(1), z.maxLength(2048)),
          description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
          events: z.optional(EventList),
        })),
    },
    responses: {
      201: { description: 'Created; `secret` is shown only here', schema: z.lazySchema(() => z.object({ webhook: WebhookEndpointSchema, secret: z.string().check(z.regex(/^[0-9a-f]{64}$/)) })) },
      ...invalid,
      ...authErrors,
      ...duplicate,
      ...rateLimitErrors,
    },
  },
  list: {
    ...common,
    method: 'GET',
    path: '/api/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'Endpoints of the key’s organization, newest first',
    responses: { 200: { description: 'Array of endpoints', schema: z.lazySchema(() => z.array(WebhookEndpointSchema)) }, ...authErrors },
  },
  get: {
    ...common,
    method: 'GET',
    path: '/api/v1/webhooks/{webhook_id}',
    operationId: 'getWebhookEndpoint',
    summary: 'One endpoint',
    request: { params: Params },
    responses: { 200: { description: 'The endpoint', schema: WebhookEndpointSchema }, ...authErrors, ...missing },
  },
  update: {
    ...common,
    method: 'PATCH',
    path: '/api/v1/webhooks/{webhook_id}',
    operationId: 'updateWebhookEndpoint',
    summary: 'Partial update; a changed url is ping-verified; is_active true re-enables and resets the failure count',
    rateLimited: true,
    request: {
      params: Params,
      body: z.lazySchema(() => z
        .strictObject({
          url: z.optional(z.string().check(z.minLength(1), z.maxLength(2048))),
          description: z.optional(z.nullable(z.string().check(z.maxLength(500)))),
          events: z.optional(EventList),
          is_active: z.optional(z.boolean()),
        })),
    },
    responses: { 200: { description: 'The updated endpoint', schema: WebhookEndpointSchema }, ...invalid, ...authErrors, ...missing, ...duplicate, ...rateLimitErrors },
  },
  delete: {
    ...common,
    method: 'DELETE',
    path: '/api/v1/webhooks/{webhook_id}',
    operationId: 'deleteWebhookEndpoint',
    summary: 'Hard delete; in-flight deliveries become exhausted',
    rateLimited: true,
    request: { params: Params },
    responses: { 204: { description: 'Deleted (no body)' }, ...authErrors, ...missing, ...rateLimitErrors },
  },
  deliveries: {
    ...common,
    method: 'GET',
    path: '/api/v1/webhooks/{webhook_id}/deliveries',
    operationId: 'listWebhookDeliveries',
    summary: 'Recent deliveries of one endpoint with every attempt, newest first',
    request: {
      params: Params,
      query: z.lazySchema(() => z.object({
        limit: pageLimit(100, 50),
        cursor: z.optional(z.string().check(z.maxLength(2048))),
      })),
    },
    responses: {
      200: { description: 'One page', schema: z.lazySchema(() => z.object({ data: z.array(WebhookDeliverySchema), next_cursor: z.nullable(z.string()) })) },
      400: { description: 'Invalid limit or cursor', schema: StringError },
      ...authErrors,
      ...missing,
    },
  },
  redeliver: {
    ...common,
    method: 'POST',
    path: '/api/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    operationId: 'redeliverWebhookDelivery',
    extension: true,
    summary: 'Extension (not in the interface spec): send an ended delivery again, as one more signed attempt',
    description:
      'Not part of the interface spec (service-spec.md); an addition of this implementation, marked `x-extension` here. A delivery that ended `exhausted` is made `pending` again for one attempt, right away, through the same delivery path as every attempt: same delivery id, same event id and body (receivers deduplicate on the event id), the next attempt number, signed with the endpoint’s current secret. Whatever that attempt’s answer, the delivery ends after it (no new retry chain). Asked again before that attempt is made (a double click), the delivery is not reopened twice: the answer is the delivery as it stands. 409 for a delivery that succeeded, one still being retried, or an endpoint that is disabled.',
    rateLimited: true,
    request: { params: DeliveryParams },
    responses: {
      202: { description: 'Reopened (or already reopened): the delivery, `pending`, its attempt on the way', schema: WebhookDeliverySchema },
      ...authErrors,
      404: { description: 'No such endpoint in the key’s organization, or no such delivery of it (a malformed id included)', schema: StringError },
      409: { description: 'The delivery succeeded, is still being retried, or its endpoint is disabled', schema: StringError },
      ...rateLimitErrors,
    },
  },
} satisfies Record<string, RouteSpec>;
