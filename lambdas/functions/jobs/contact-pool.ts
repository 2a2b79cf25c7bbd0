import { awsWorkflowPorts } from '../../composition/aws-uploads';
import { runContactPool } from '../../contacts/pool-job';

/** EventBridge Scheduler target: queued contacts pooled into uploads. */
export const handler = async () => ({ pool: await runContactPool(awsWorkflowPorts()) });
