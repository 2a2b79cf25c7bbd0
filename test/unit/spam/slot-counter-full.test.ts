import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mockClient } from 'aws-sdk-client-mock';
import { DynamoDBDocumentClient, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { reloadConfig } from '../../../lambdas/platform/config';
import { reserveSlotFor, SlotCounterFull } from '../../../lambdas/spam/number-repository';
import { addNumber } from '../../../lambdas/spam/number-enrollment';
import { Forbidden } from '../../../lambdas/platform/domain-errors';
import type { Organization } from '../../../lambdas/auth/identities';

// The organization's slot counter is one item: one still full of slots kept from before slots were
// settled (docs/spam-monitoring.md) makes DynamoDB refuse to grow it past 400 KB (about 5,600
// slots, measured on the embedded table), and an add is a 403 that says so, not a 500 a client
// would retry for ever.

const ddb = mockClient(DynamoDBDocumentClient);
beforeAll(() => {
  process.env.TABLE_NAME = 'slot-counter-unit';
  reloadConfig();
});
beforeEach(() => ddb.reset());
afterAll(() => ddb.restore());

const full = Object.assign(new Error('Item size to update has exceeded the maximum allowed size'), { name: 'ValidationException' });

describe('a full slot counter', () => {
  it('the repository names it; other errors pass unchanged', async () => {
    ddb.on(UpdateCommand).rejects(full);
    await expect(reserveSlotFor('org-1', null, { numberId: 'n-1', phone: '+12023180001', at: 1 })).rejects.toBeInstanceOf(SlotCounterFull);
    ddb.on(UpdateCommand).rejects(Object.assign(new Error('One or more parameter values were invalid'), { name: 'ValidationException' }));
    await expect(reserveSlotFor('org-1', null, { numberId: 'n-1', phone: '+12023180001', at: 1 })).rejects.not.toBeInstanceOf(SlotCounterFull);
  });

  it('an add answers 403 with what to do, even with no cap', async () => {
    ddb.on(UpdateCommand).rejects(full);
    ddb.on(GetCommand).resolves({});
    const org = { id: 'org-1', spam_included_numbers: null } as unknown as Organization;
    const added = addNumber({} as never, org, { phone_number: '+12023180001', verification_method: 'call' });
    await expect(added).rejects.toBeInstanceOf(Forbidden);
    await expect(added).rejects.toThrow(/about 5,600\); delete a number, and numbers can be added again/);
  });
});
