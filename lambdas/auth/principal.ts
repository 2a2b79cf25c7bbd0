import type { Organization } from './identities';

/** Who a request acts as: the API key, its creator and its organization (authenticate.ts). */
export interface Principal {
  organization: Organization;
  organizationId: string;
  userId: string;
  apiKeyId: string;
  scopes: string[];
}
