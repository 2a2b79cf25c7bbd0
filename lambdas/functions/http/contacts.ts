import { awsNetPorts, awsSealPorts } from '../../composition/aws';
import { contactsApi } from './contacts-api';

// Seals callback secrets; never opens one (the delivery consumer signs callbacks).
export const handler = contactsApi({ ...awsNetPorts(), ...awsSealPorts() });
