import { listKeys, mintKey, removeMember, revokeKey } from '../../../admin/admin';
import { operation, type BoundOperation } from '../../../api/operation';
import { getApiKeyById, getMembership } from '../../../auth/identity-repository';
import type { ConsolePorts } from '../../../composition/ports';
import { listMembers } from '../../../console/directory';
import { inviteMember, releaseInvite } from '../../../console/invite-member';
import { developerRoutes as routes } from '../../../console/developer-routes';
import { nowMs } from '../../../platform/clock';
import { InvalidInput, NotFound } from '../../../platform/domain-errors';
import { ok } from '../../../platform/http/response';
import { owner } from './owner';

// The console's developer panel: API keys and members (owners only; spec: "Keys cannot manage
// keys", so no API key reaches these). Loaded at its first request (../console-api.ts).

export const operations = (ports: ConsolePorts): BoundOperation[] => [
  operation(routes.listKeys, async ({ member: p }) =>
    owner(p, async () => {
      const members = new Map((await listMembers(p.organizationId)).map((m) => [m.user_id, m.email]));
      const keys = await listKeys(p.organizationId);
      return ok({
        data: keys
          .sort((a, b) => b.created_at.localeCompare(a.created_at))
          .map((k) => ({ id: k.id, name: k.name ?? null, display_prefix: k.display_prefix, created_by_user_id: k.created_by_user_id, created_by: members.get(k.created_by_user_id) ?? null, created_at: k.created_at, expires_at: k.expires_at, revoked_at: k.revoked_at, last_used_at: (k as { last_used_at?: string }).last_used_at ?? null })),
      });
    }),
  ),
  operation(routes.mintKey, async ({ member: p, body }) =>
    owner(p, async () => {
      if (body.expires_at && Date.parse(body.expires_at) <= nowMs()) throw new InvalidInput('expires_at must be in the future');
      const minted = await mintKey(p.organizationId, p.userId, body.expires_at ?? undefined, body.name);
      return ok({ key: minted.key, id: minted.record.id, name: minted.record.name ?? null, display_prefix: minted.record.display_prefix, created_at: minted.record.created_at, expires_at: minted.record.expires_at });
    }),
  ),
  operation(routes.revokeKey, async ({ member: p, params }) =>
    owner(p, async () => {
      const key = await getApiKeyById(params.id);
      if (!key || key.organization_id !== p.organizationId) throw new NotFound('API key not found');
      await revokeKey(key.id);
      return ok({ id: key.id, revoked: true });
    }),
  ),
  operation(routes.listMembers, async ({ member: p }) => owner(p, async () => ok({ data: await listMembers(p.organizationId) }))),
  operation(routes.inviteMember, async ({ member: p, body }) => owner(p, async () => ok(await inviteMember(ports, p.organizationId, p.userId, body.email)))),
  operation(routes.removeMember, async ({ member: p, params }) =>
    owner(p, async () => {
      if (params.userId === p.userId) throw new InvalidInput('You cannot remove yourself; another owner can');
      // Someone who is not a member (any more) is not found, like an unknown key or endpoint.
      if (!(await getMembership(p.organizationId, params.userId))) throw new NotFound('Member not found');
      const result = await removeMember(p.organizationId, params.userId);
      await releaseInvite(p.organizationId, params.userId);
      return ok({ user_id: params.userId, revoked_keys: result.revokedKeys });
    }),
  ),
];
