import { awsDeliveryPorts, awsOpenPorts } from '../../composition/aws';
import { sweepDueDeliveries } from '../../webhooks/sweeper';

const ports = { ...awsDeliveryPorts(), ...awsOpenPorts() };

/** EventBridge Scheduler target, every minute: deliveries a lost message or a dead worker left due. */
export const handler = () => sweepDueDeliveries(ports);
