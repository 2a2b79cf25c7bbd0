import { nowIso, nowMs } from '../platform/clock';
import { Conflict, NotFound } from '../platform/domain-errors';
import { DELIVERY_ID } from './fan-out';
import { logger } from '../platform/logger';
import { enqueueDelivery, type DeliveryPorts } from './delivery-queue';
import { getDelivery, reopenForRedelivery } from './delivery-repository';
import { toPublicDelivery, type WebhookDelivery } from './delivery-view';
import { ownEndpoint } from './endpoints';
import { redeliveryDecision } from './redelivery-rule';

/**
 * Sends an ended delivery of one of the organization's endpoints again (docs/webhooks.md,
 * "Redelivery"): the same delivery, body, event id and delivery id, as one more signed attempt on
 * the delivery path every attempt takes (the queue, or the sweeper if the message is lost). Asked
 * twice (a double click), it is reopened once; the second answer is the delivery as it stands.
 */
export async function redeliver(ports: DeliveryPorts, organizationId: string, webhookId: string, deliveryId: string): Promise<WebhookDelivery> {
  const endpoint = await ownEndpoint(organizationId, webhookId);
  const delivery = DELIVERY_ID.test(deliveryId) ? await getDelivery(deliveryId) : null;
  if (!delivery || delivery.kind !== 'webhook' || delivery.webhook_id !== endpoint.id || delivery.organization_id !== organizationId) throw new NotFound('Delivery not found');
  const decision = redeliveryDecision(delivery, endpoint);
  if (decision.kind === 'refused') throw new Conflict(decision.reason);
  if (decision.kind === 'under_way') return toPublicDelivery(delivery);
  const due = nowMs();
  if (await reopenForRedelivery(delivery, new Date(due).toISOString(), nowIso())) {
    logger.info('webhook delivery sent again', { delivery_id: delivery.id, webhook_id: endpoint.id, event_id: delivery.event_id, attempt: delivery.attempt_count + 1 });
    await enqueueDelivery(ports.deliveryQueue, delivery.id, due);
  }
  // Reopened by this request or a simultaneous one: either way, the delivery as it is now.
  const current = await getDelivery(delivery.id);
  if (!current) throw new NotFound('Delivery not found');
  return toPublicDelivery(current);
}
