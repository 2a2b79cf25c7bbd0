import { Logger } from '@aws-lambda-powertools/logger';

// One structured JSON logger for every handler; POWERTOOLS_SERVICE_NAME and POWERTOOLS_LOG_LEVEL
// configure it in both runtimes.
export const logger = new Logger({ serviceName: process.env.POWERTOOLS_SERVICE_NAME ?? 'phone-validation' });
