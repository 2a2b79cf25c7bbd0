import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import type { Ports } from '../lambdas/composition/ports';
import type { ApiLambda } from './api-gateway-server';
import { handler as platform } from '../lambdas/platform/handler';
import { handler as credits } from '../lambdas/credits/handler';
import { webhooksApi } from '../lambdas/webhooks/handler';
import { spamApi } from '../lambdas/spam/handler';
import { contactsApi } from '../lambdas/contacts/handler';
import { uploadsApi } from '../lambdas/uploads/handler';

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
