import { awsWorkflowPorts } from '../../composition/aws-uploads';
import { uploadsApi } from './uploads-api';

export const handler = uploadsApi(awsWorkflowPorts());
