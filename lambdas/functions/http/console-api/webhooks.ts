import { operation, type BoundOperation } from '../../../api/operation';
import type { ConsolePorts } from '../../../composition/ports';
import { webhookRoutes as routes } from '../../../console/webhook-routes';
import { ok } from '../../../platform/http/response';
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpointsOf, updateEndpointWithPing } from '../../../webhooks/endpoints';
import { DEFAULT_EVENT_TYPES, SUBSCRIBABLE_EVENT_TYPES } from '../../../webhooks/envelope';
import { redeliver } from '../../../webhooks/redeliver';
import { owner } from './owner';

// The console's webhooks panel (owners: they are part of the integration). The API's own schemas
// and functions, so registration pings synchronously and shows the secret once. Loaded at its
// first request (../console-api.ts).

export const operations = (ports: ConsolePorts): BoundOperation[] => [
  operation(routes.listWebhooks, async ({ member: p }) => owner(p, async () => ok({ data: await listEndpointsOf(p.organizationId), event_types: SUBSCRIBABLE_EVENT_TYPES, default_events: DEFAULT_EVENT_TYPES }))),
  operation(routes.createWebhook, async ({ member: p, body }) => owner(p, async () => ok(await createEndpoint(ports, p.organizationId, body)))),
  // A changed url goes through the API's own update: URL-safety check, then the synchronous ping
  // with the endpoint's secret; a refusal leaves the endpoint as it was.
  operation(routes.updateWebhook, async ({ member: p, params, body }) => owner(p, async () => ok(await updateEndpointWithPing(ports, p.organizationId, params.id, body)))),
  operation(routes.deleteWebhook, async ({ member: p, params }) =>
    owner(p, async () => {
      await deleteEndpoint(p.organizationId, params.id);
      return ok({ id: params.id, deleted: true });
    }),
  ),
  operation(routes.redeliverWebhook, async ({ member: p, params }) => owner(p, async () => ok(await redeliver(ports, p.organizationId, params.webhook_id, params.delivery_id)))),
  operation(routes.webhookDeliveries, async ({ member: p, params, query }) => owner(p, async () => ok(await listDeliveries(p.organizationId, params.id, { limit: 50, cursor: query.cursor || undefined })))),
];
