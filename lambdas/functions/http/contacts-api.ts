import { apiHandler } from '../../api/api-handler';
import { NotFound } from '../../platform/domain-errors';
import { operation } from '../../api/operation';
import { ok } from '../../platform/http/response';
import { toV1, toV2, type ContactRecord } from '../../contacts/contact';
import { getContact, listContacts } from '../../contacts/contact-repository';
import { createContact } from '../../contacts/create-contact';
import { idempotencyKeyOf } from '../../contacts/idempotency-key';
import { contactsV1Routes, contactsV2Routes } from '../../contacts/routes';
import type { NetPorts } from '../../platform/net/outbound';
import type { SealPorts } from '../../webhooks/secret-sealer';

// v1 and v2 act on the same contacts; only the response shape differs.
const versions = [
  { routes: contactsV1Routes, view: toV1 },
  { routes: contactsV2Routes, view: toV2 },
] as const;

/** The contacts API over the ports of its runtime's composition root. */
export const contactsApi = (ports: NetPorts & SealPorts) =>
  apiHandler(
    versions.flatMap(({ routes, view }) => [
      operation(routes.create, async (ctx) => {
        const idempotencyKey = idempotencyKeyOf(ctx.body.idempotency_key, ctx.headers['idempotency-key']);
        const { contact, replayed } = await createContact(ports, ctx.principal, { ...ctx.body, idempotency_key: idempotencyKey });
        const headers: Record<string, string> = replayed ? { 'Idempotent-Replayed': 'true' } : {};
        return { status: 201, body: view(contact), headers };
      }),
      operation(routes.list, async (ctx) => {
        const page = await listContacts(ctx.principal.organizationId, ctx.query);
        return ok({ data: page.data.map((c: ContactRecord) => view(c)), next_cursor: page.nextCursor });
      }),
      operation(routes.get, async (ctx) => {
        const contact = await getContact(ctx.params.contact_id);
        // Another organization's contact is indistinguishable from a missing one (spec, 404).
        if (!contact || contact.organization_id !== ctx.principal.organizationId || contact.status === 'creating') throw new NotFound('Contact not found');
        return ok(view(contact));
      }),
    ]),
  );
