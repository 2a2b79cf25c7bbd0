import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { DeliveryParams, webhooksRoutes } from '../webhooks/routes';
import { WebhookId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

/** The webhooks panel's routes with their request schemas: the API's own bodies. */
export const webhookRoutes = {
  listWebhooks: at.listWebhooks,
  createWebhook: { ...at.createWebhook, request: { body: webhooksRoutes.create.request.body } },
  updateWebhook: { ...at.updateWebhook, request: { params: WebhookId, body: webhooksRoutes.update.request.body } },
  deleteWebhook: { ...at.deleteWebhook, request: { params: WebhookId } },
  redeliverWebhook: { ...at.redeliverWebhook, request: { params: DeliveryParams } },
  webhookDeliveries: { ...at.webhookDeliveries, request: { params: WebhookId, query: z.lazySchema(() => z.object({ cursor: z.optional(z.string().check(z.maxLength(4096))) })) } },
} satisfies Record<string, ConsoleRouteSpec>;
