import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { AuthenticationFailed, Forbidden } from '../platform/domain-errors';
import { isUuid } from '../platform/ids';
import { getMembership, getOrganization, getUser, listMembershipsOfUser, type Organization, type User } from '../auth/identity-repository';

// Who is calling a console route. The JWT was already verified before the handler runs: in AWS by
// the HTTP API's JWT authorizer, locally by local/console-jwt-authorizer.ts, which both put the
// verified claims at requestContext.authorizer.jwt.claims. API keys never get here: they are not
// JWTs, so the authorizer refuses them.

export type Role = 'owner' | 'member';

export interface ConsolePrincipal {
  user: User;
  organization: Organization;
  organizationId: string;
  userId: string;
  role: Role;
}

type JwtEvent = APIGatewayProxyEventV2 & { requestContext: { authorizer?: { jwt?: { claims?: Record<string, unknown> } } } };

export function verifiedClaims(event: APIGatewayProxyEventV2): Record<string, unknown> | null {
  return (event as JwtEvent).requestContext.authorizer?.jwt?.claims ?? null;
}

/**
 * The service's user id. Cognito access tokens carry `username`, which the operator sets to the
 * service's user id when creating the Cognito user (people sign in with their email alias); the
 * local provider issues the user id as `sub`. See docs/console.md.
 */
export function userIdOf(claims: Record<string, unknown>): string | null {
  const id = claims.username ?? claims.sub;
  // The service's user ids are UUIDs; anything else names no user (and never reaches a table key).
  return typeof id === 'string' && isUuid(id) ? id.toLowerCase() : null;
}

export async function consolePrincipal(event: APIGatewayProxyEventV2): Promise<ConsolePrincipal> {
  const claims = verifiedClaims(event);
  const userId = claims ? userIdOf(claims) : null;
  if (!userId) throw new AuthenticationFailed('Sign in to use the console');
  const user = await getUser(userId);
  if (!user) throw new Forbidden('This account is not a user of the service; ask an organization owner to add you');
  // A user belongs to one organization in the console (the first membership); see docs/console.md.
  const [orgId] = await listMembershipsOfUser(userId);
  const membership = orgId ? await getMembership(orgId, userId) : null;
  const organization = orgId ? await getOrganization(orgId) : null;
  if (!orgId || !membership || !organization) throw new Forbidden('This account is not a member of any organization');
  return { user, organization, organizationId: orgId, userId, role: membership.role === 'owner' ? 'owner' : 'member' };
}

export function requireOwner(principal: ConsolePrincipal): void {
  if (principal.role !== 'owner') throw new Forbidden('Only an organization owner can do this');
}
