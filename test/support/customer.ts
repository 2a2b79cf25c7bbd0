import * as admin from '../../lambdas/admin/admin';

export type CustomerOptions = Partial<Parameters<typeof admin.createOrganization>[0]> & {
  /** How many API keys the owner mints (default 1). */
  keys?: number;
  /** Expiry of the minted keys. */
  expiresAt?: string;
};

/**
 * A fresh customer as an operator creates one with `npm run admin`: an organization, its owner,
 * and the owner's API key(s). Each call is a new organization, so tests never share balances,
 * limits or lists.
 */
export async function newCustomer(options: CustomerOptions = {}) {
  const { keys: keyCount = 1, expiresAt, ...organization } = options;
  const org = await admin.createOrganization({ name: 'Test customer', ...organization });
  const user = await admin.createUser(`owner-${org.id}@example.test`);
  await admin.addMember(org.id, user.id, 'owner');
  const minted = [];
  for (let i = 0; i < keyCount; i++) minted.push(await admin.mintKey(org.id, user.id, expiresAt));
  return { org, user, key: minted[0]?.key ?? '', keys: minted.map((m) => m.key), minted };
}
