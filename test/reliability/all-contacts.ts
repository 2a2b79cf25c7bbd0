import { listContacts } from '../../lambdas/contacts/contact-repository';
import type { ContactRecord } from '../../lambdas/contacts/contact';

/** Every contact of an organization, page by page as the API lists them. */
export async function allContacts(orgId: string): Promise<ContactRecord[]> {
  const all: ContactRecord[] = [];
  let cursor: string | undefined;
  do {
    const page = await listContacts(orgId, { limit: 100, cursor });
    all.push(...page.data);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return all;
}
