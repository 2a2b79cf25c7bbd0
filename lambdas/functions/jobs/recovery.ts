import { awsUploadPorts } from '../../composition/aws-recovery';
import { runRecovery } from '../../recovery/recovery-job';

/** EventBridge Scheduler target, every few minutes: every resource kind's recovery, then the outbox drain. */
export const handler = () => runRecovery(awsUploadPorts());
