import * as z from 'zod';
import { authErrors, byIdParams, ErrorEnvelope, rateLimitErrors } from '../platform/http/common-schemas';
import type { RouteSpec } from '../platform/http/route-spec';
import { SUBSCRIBABLE_EVENT_TYPES } from '../events/envelope';

const EventList = z.array(z.string()).max(50).describe(`Event types; any of ${SUBSCRIBABLE_EVENT_TYPES.join(', ')}`);

export const WebhookEndpointSchema = z
  .object({
    id: z.string().uuid(),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()),
    is_active: z.boolean(),
    verified_at: z.string().nullable(),
    last_success_at: z.string().nullable(),
    last_failure_at: z.string().nullable(),
    consecutive_failures: z.number().int(),
    disabled_at: z.string().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });

const PingFailed = z
  .object({
    detail: z.object({
      error: z.literal('ping_failed'),
      message: z.string(),
      status_code: z.number().int().nullable(),
      underlying_error: z.string().nullable(),
    }),
  })
  .meta({ id: 'PingFailedError' });

const WebhookDeliverySchema = z
  .object({
    id: z.string().describe('Delivery id; the X-Service-Delivery-Id header of every attempt'),
    webhook_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    state: z.enum(['pending', 'succeeded', 'exhausted']),
    attempt_count: z.number().int(),
    attempts: z.array(
      z.object({
        attempt: z.number().int(),
        attempted_at: z.string(),
        status_code: z.number().int().nullable().describe('null when no response arrived'),
        error: z.string().nullable().describe('network, timeout or URL-safety error'),
      }),
    ),
    next_attempt_at: z.string().nullable(),
    exhausted_reason: z.string().nullable().describe('set when the delivery ended without a further attempt (endpoint deleted or inactive)'),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'WebhookDelivery' });

const Params = byIdParams('webhook_id', 'Webhook endpoint not found', 'id of a webhook endpoint of the key’s organization');

const common = { fn: 'webhooks' as const, tags: ['webhooks'], scope: 'webhooks:manage' as const };
const invalid = { 400: { description: 'Invalid input, URL refused or ping failed', schema: z.union([ErrorEnvelope, PingFailed]) } };
const missing = { 404: { description: 'No such endpoint in the key’s organization', schema: ErrorEnvelope } };

export const webhooksRoutes = {
  create: {
    ...common,
    method: 'POST',
    path: '/api/v1/webhooks',
    operationId: 'createWebhookEndpoint',
    summary: 'Register an endpoint (sends a synchronous webhook.ping; saved only on 2xx)',
    rateLimited: true,
    request: {
      body: z
        .object({
          url: z.string().min(1).max(2048),
          description: z.string().max(500).nullable().optional(),
          events: EventList.optional(),
        })
        .strict(),
    },
    responses: {
      201: { description: 'Created; `secret` is shown only here', schema: z.object({ webhook: WebhookEndpointSchema, secret: z.string().regex(/^[0-9a-f]{64}$/) }) },
      ...invalid,
      ...authErrors,
      ...rateLimitErrors,
    },
  },
  list: {
    ...common,
    method: 'GET',
    path: '/api/v1/webhooks',
    operationId: 'listWebhookEndpoints',
    summary: 'Endpoints of the key’s organization, newest first',
    responses: { 200: { description: 'Array of endpoints', schema: z.array(WebhookEndpointSchema) }, ...authErrors },
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
      body: z
        .object({
          url: z.string().min(1).max(2048).optional(),
          description: z.string().max(500).nullable().optional(),
          events: EventList.optional(),
          is_active: z.boolean().optional(),
        })
        .strict(),
    },
    responses: { 200: { description: 'The updated endpoint', schema: WebhookEndpointSchema }, ...invalid, ...authErrors, ...missing, ...rateLimitErrors },
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
      query: z.object({
        limit: z.coerce.number().int().min(1).max(100).default(50),
        cursor: z.string().max(2048).optional(),
      }),
    },
    responses: {
      200: { description: 'One page', schema: z.object({ data: z.array(WebhookDeliverySchema), next_cursor: z.string().nullable() }) },
      400: { description: 'Invalid limit or cursor', schema: ErrorEnvelope },
      ...authErrors,
      ...missing,
    },
  },
} satisfies Record<string, RouteSpec>;
