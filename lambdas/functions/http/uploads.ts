import { awsWorkflowPorts } from '../../composition/aws';
import { uploadsApi } from './uploads-api';

export const handler = uploadsApi(awsWorkflowPorts());
