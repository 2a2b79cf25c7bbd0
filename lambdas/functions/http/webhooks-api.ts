import { apiHandler } from '../../api/api-handler';
import { operation } from '../../api/operation';
import { created, ok } from '../../platform/http/response';
import { redeliver } from '../../webhooks/redeliver';
import type { DeliveryPorts } from '../../webhooks/delivery-queue-port';
import { createEndpoint, deleteEndpoint, getEndpointOf, listDeliveries, listEndpointsOf, updateEndpoint } from '../../webhooks/endpoints';
import { webhooksRoutes as routes } from '../../webhooks/routes';
import type { NetPorts } from '../../platform/net/outbound';
import type { OpenPorts, SealPorts } from '../../webhooks/secret-sealer';

/** The webhooks API over the ports of its runtime's composition root. */
export const webhooksApi = (ports: NetPorts & SealPorts & OpenPorts & DeliveryPorts) =>
  apiHandler([
    operation(routes.create, async (ctx) => created(await createEndpoint(ports, ctx.principal.organizationId, ctx.body))),
    operation(routes.list, async (ctx) => ok(await listEndpointsOf(ctx.principal.organizationId))),
    operation(routes.get, async (ctx) => ok(await getEndpointOf(ctx.principal.organizationId, ctx.params.webhook_id))),
    operation(routes.update, async (ctx) => ok(await updateEndpoint(ports, ctx.principal.organizationId, ctx.params.webhook_id, ctx.body))),
    operation(routes.delete, async (ctx) => {
      await deleteEndpoint(ctx.principal.organizationId, ctx.params.webhook_id);
      return { status: 204 };
    }),
    operation(routes.deliveries, async (ctx) => ok(await listDeliveries(ctx.principal.organizationId, ctx.params.webhook_id, ctx.query))),
    operation(routes.redeliver, async (ctx) => ({ status: 202, body: await redeliver(ports, ctx.principal.organizationId, ctx.params.webhook_id, ctx.params.delivery_id) })),
  ]);
