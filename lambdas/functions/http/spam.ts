import { awsSpamNumberPorts } from '../../composition/aws-spam';
import { spamApi } from './spam-api';

export const handler = spamApi(awsSpamNumberPorts());
