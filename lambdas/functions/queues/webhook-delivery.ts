import type { SQSEvent } from 'aws-lambda';
import { awsDeliveryPorts, awsOpenPorts } from '../../composition/aws';
import { deliverQueuedMessage } from '../../webhooks/delivery';
import type { DeliveryPorts } from '../../webhooks/delivery-queue-port';
import type { OpenPorts } from '../../webhooks/secret-sealer';
import { eachRecord } from './sqs-batch';

/** SQS consumer of the delivery chain: one delivery attempt per message. */
export const deliveryConsumer = (ports: DeliveryPorts & OpenPorts) => (event: SQSEvent) =>
  eachRecord(event, 'webhook delivery message', (record) => deliverQueuedMessage(ports, record.body));

export const handler = deliveryConsumer({ ...awsDeliveryPorts(), ...awsOpenPorts() });
