import { awsDeliveryPorts } from '../../composition/aws';
import { notifyPool } from '../../contacts/pool-step';

/** The upload workflow's NotifyPool step (after Finalize and after MarkFailed). */
export const handler = (input: { upload_id: string }) => notifyPool(awsDeliveryPorts(), input);
