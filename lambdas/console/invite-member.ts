import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { deleteMembership, deleteUser, getMembership, getUser, putMembership, putUser } from '../auth/identity-repository';
import { nowIso, nowMs } from '../platform/clock';
import { Conflict } from '../platform/domain-errors';
import { newId, sha256Hex } from '../platform/ids';
import { logger } from '../platform/logger';
import { conditionalWrite, db, insertItem, replaceItemIf, tableName } from '../platform/table';
import { listMembers, type Member } from './directory';
import { normalizeInviteEmail } from './invite-email';
import type { Invitation, MemberInvitePorts } from './member-inviter';

// An owner invites a person by email (docs/console.md, "Inviting members"): a new service user, its
// membership with the member role, and a way to sign in (the inviter port). One invitation per
// address and organization, concurrent ones included: a guard item in the organization's partition
// (MemberInvite, docs/data-model.md), written with attribute_not_exists before anything else.

/** An invitation (user, membership, sign-in) ends well within this; a guard older than it whose user is no member was left by a failure. */
export const INVITE_BOUND_MS = 2 * 60_000;

const guardKey = (orgId: string, email: string) => ({ pk: `ORG#${orgId}`, sk: `INVITE#${sha256Hex(email)}` });

export async function inviteMember(ports: MemberInvitePorts, orgId: string, invitedBy: string, rawEmail: string): Promise<{ member: Member; invitation: Invitation }> {
  const email = normalizeInviteEmail(rawEmail);
  const already = () => new Conflict(`${email} is already a member of this organization`);
  if ((await listMembers(orgId)).some((m) => m.email?.toLowerCase() === email)) throw already();
  const userId = newId();
  const at = nowIso();
  await claimInvite(orgId, email, userId, invitedBy, already);
  await putUser({ id: userId, email, created_at: at });
  await putMembership(orgId, userId, 'member', at);
  let invitation: Invitation;
  try {
    invitation = await ports.memberInviter.invite({ id: userId, email });
  } catch (error) {
    // No way to sign in was made (Cognito refused, or was unreachable): undo, so inviting again works.
    await deleteMembership(orgId, userId);
    await deleteUser(userId);
    await releaseInvite(orgId, userId, email);
    throw error;
  }
  logger.info('member invited', { organization_id: orgId, user_id: userId, invited_by: invitedBy, delivery: invitation.delivery });
  return { member: { user_id: userId, email, role: 'member', created_at: at }, invitation };
}

async function claimInvite(orgId: string, email: string, userId: string, invitedBy: string, already: () => Conflict): Promise<void> {
  const key = guardKey(orgId, email);
  const guard = { ...key, organization_id: orgId, user_id: userId, invited_by: invitedBy, invited_at: nowMs() };
  if (await insertItem('MemberInvite', guard)) return;
  const held = (await db().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
  if (!held) throw new Conflict(`An invitation for ${email} changed just now; try again`);
  // Still a member (or being made one right now): the same person twice.
  if ((await getMembership(orgId, String(held.user_id))) || nowMs() - Number(held.invited_at) < INVITE_BOUND_MS) throw already();
  // Removed since, or an invitation that failed half-way: this one takes the address over.
  const taken = await replaceItemIf('MemberInvite', guard, 'user_id = :seen', { ':seen': held.user_id });
  if (!taken) throw already();
}

/** A member removed (or an invitation undone): their address may be invited again (the guard goes, if it is still theirs). */
export async function releaseInvite(orgId: string, userId: string, knownEmail?: string): Promise<void> {
  const address = knownEmail ?? (await getUser(userId))?.email;
  if (!address) return;
  let email: string;
  try {
    email = normalizeInviteEmail(address);
  } catch {
    return; // an address the console never invited (an operator's): no guard
  }
  await conditionalWrite(() =>
    db().send(new DeleteCommand({ TableName: tableName(), Key: guardKey(orgId, email), ConditionExpression: 'user_id = :id', ExpressionAttributeValues: { ':id': userId } })),
  );
}
