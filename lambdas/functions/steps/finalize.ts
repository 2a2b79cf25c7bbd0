import { awsDeliveryPorts } from '../../composition/aws';
import { finalize } from '../../uploads/pipeline/finalize';

/** The upload workflow's Finalize step. */
export const handler = (input: Parameters<typeof finalize>[1]) => finalize(awsDeliveryPorts(), input);
