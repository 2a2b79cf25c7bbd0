import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import type { Ports } from '../lambdas/composition/ports';
import type { ApiLambda } from './api-gateway-server';
import { handler as platform } from '../lambdas/functions/http/platform';
import { handler as credits } from '../lambdas/functions/http/credits';
import { webhooksApi } from '../lambdas/functions/http/webhooks-api';
import { spamApi } from '../lambdas/functions/http/spam-api';
import { contactsApi } from '../lambdas/functions/http/contacts-api';
import { uploadsApi } from '../lambdas/functions/http/uploads-api';

/**
 * The API functions the deployed stack has, by name: the same handler modules CDK bundles, those
 * that use ports built with the local composition root's.
 */
export function apiFunctions(ports: Ports): Record<ApiFunctionName, ApiLambda> {
  return {
    platform: platform as ApiLambda,
    credits: credits as ApiLambda,
    uploads: uploadsApi(ports) as ApiLambda,
    contacts: contactsApi(ports) as ApiLambda,
    webhooks: webhooksApi(ports) as ApiLambda,
    spam: spamApi(ports) as ApiLambda,
  };
}
