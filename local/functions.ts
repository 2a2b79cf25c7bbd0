import type { ApiFunctionName } from '../lambdas/platform/http/route-spec';
import type { ApiLambda } from './api-gateway-server';
import { handler as platform } from '../lambdas/platform/handler';
import { handler as credits } from '../lambdas/credits/handler';
import { handler as webhooks } from '../lambdas/webhooks/handler';
import { handler as spam } from '../lambdas/spam/handler';
import { handler as contacts } from '../lambdas/contacts/handler';
import { handler as uploads } from '../lambdas/uploads/handler';

/** The API functions the deployed stack has, by name: the same handler modules CDK bundles. */
export function apiFunctions(): Record<ApiFunctionName, ApiLambda> {
  return {
    platform: platform as ApiLambda,
    credits: credits as ApiLambda,
    uploads: uploads as ApiLambda,
    contacts: contacts as ApiLambda,
    webhooks: webhooks as ApiLambda,
    spam: spam as ApiLambda,
  };
}
