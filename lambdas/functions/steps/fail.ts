import { awsDeliveryPorts } from '../../composition/aws';
import { fail } from '../../uploads/pipeline/fail';

/** The upload workflow's MarkFailed step. */
export const handler = (input: Parameters<typeof fail>[1]) => fail(awsDeliveryPorts(), input);
