import { apiHandler } from '../api/api-handler';
import { operation } from '../platform/http/operation';
import { created, ok } from '../platform/http/response';
import { createEndpoint, deleteEndpoint, getEndpointOf, listDeliveries, listEndpointsOf, updateEndpoint } from './endpoints';
import { webhooksRoutes as routes } from './routes';
import type { NetPorts } from '../platform/net/outbound';
import { awsNetPorts, awsOpenPorts, awsSealPorts } from '../composition/aws';
import type { OpenPorts, SealPorts } from './secret-sealer';

/** The webhooks API over the ports of its runtime's composition root. */
export const webhooksApi = (ports: NetPorts & SealPorts & OpenPorts) =>
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
  ]);

/** The webhooks API Lambda, wired by the AWS composition root. */
// Seals the secret of a new endpoint; opens it for the ping of a URL change.
export const handler = webhooksApi({ ...awsNetPorts(), ...awsSealPorts(), ...awsOpenPorts() });
