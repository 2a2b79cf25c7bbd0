import { awsConsolePorts } from '../../composition/aws-spam';
import { consoleApi } from './console-api';

export const handler = consoleApi(awsConsolePorts());
