import { awsNetPorts, awsOpenPorts, awsSealPorts } from '../../composition/aws';
import { webhooksApi } from './webhooks-api';

// Seals the secret of a new endpoint; opens it for the ping of a URL change.
export const handler = webhooksApi({ ...awsNetPorts(), ...awsSealPorts(), ...awsOpenPorts() });
