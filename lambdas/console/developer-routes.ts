import * as z from '../platform/zod';
import type { ConsoleRouteSpec } from '../platform/http/route-spec';
import { KeyId, MemberId } from './route-ids';
import { CONSOLE_ROUTE_TABLE as at } from './route-table';

/** The developer panel's routes (API keys, members) with their request schemas. */
export const developerRoutes = {
  listKeys: at.listKeys,
  // Unknown fields are refused (400), not dropped; name is trimmed, and its rules are normalizeKeyName's (lambdas/admin/key-name.ts).
  mintKey: { ...at.mintKey, request: { body: z.lazySchema(() => z.strictObject({ expires_at: z.nullish(z.iso.datetime({ offset: true })), name: z.nullish(z.string().check(z.maxLength(1000))) })) } },
  revokeKey: { ...at.revokeKey, request: { params: KeyId } },
  listMembers: at.listMembers,
  inviteMember: { ...at.inviteMember, request: { body: z.lazySchema(() => z.strictObject({ email: z.string().check(z.maxLength(1000)) })) } },
  removeMember: { ...at.removeMember, request: { params: MemberId } },
} satisfies Record<string, ConsoleRouteSpec>;
