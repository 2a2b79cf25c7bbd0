import { awsDeliveryPorts, awsOpenPorts, awsSealPorts } from '../../composition/aws';
import { webhooksApi } from './webhooks-api';

// Seals the secret of a new endpoint; opens it for the ping of a URL change; queues a redelivery.
export const handler = webhooksApi({ ...awsDeliveryPorts(), ...awsSealPorts(), ...awsOpenPorts() });
