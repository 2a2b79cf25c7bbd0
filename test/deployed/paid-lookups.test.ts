import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../../lambdas/admin/admin';
import { getUpload } from '../../lambdas/uploads/upload-repository';
import { startFakeTwilio, type FakeTwilio } from '../support/fake-twilio-lookup';
import { waitFor } from '../support/wait';
import { startDeployedStack, type DeployedStack } from './deployed-stack';
import { evaluateCalls } from './iam';
import type { DeployedLambda } from './lambda-host';

/**
 * Issue 27 through the deployed artifacts: the ClassifyChunk bundle synthesized into cdk.out (not
 * the TypeScript), run by the synthesized state machine, set to a paid provider (Twilio Lookup v2,
 * a stand-in on loopback that counts a lookup as paid when its 200 answer was delivered). A chunk
 * whose container is killed with SIGKILL resumes from its checkpoint and pays no number twice; a
 * second upload of the same numbers is answered from the lookup cache and pays nothing.
 */
describe('deployed artifacts: paid lookups through the shipped ClassifyChunk', () => {
  let stack: DeployedStack;
  let fake: FakeTwilio;
  let classify: DeployedLambda;
  let key = '';
  const phones = Array.from({ length: 120 }, (_, i) => `+1312555${String(4000 + i)}`);

  const upload = async (): Promise<{ id: string; credits_charged: number }> => {
    const form = new FormData();
    form.append('file', new Blob([['phone', ...phones].join('\n')], { type: 'text/csv' }), 'paid.csv');
    form.append('phone_columns', 'phone');
    const res = await fetch(`${stack.api}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    return JSON.parse(text) as { id: string; credits_charged: number };
  };

  beforeAll(async () => {
    stack = await startDeployedStack();
    fake = await startFakeTwilio();
    fake.options.delayMs = () => 5;
    // The stage's paid-provider settings on the shipped function; its next invocation starts a
    // container with them (the template has the table, the bucket and the provider's other settings).
    classify = stack.fn('UploadsClassifyChunk');
    Object.assign(classify.environment, {
      CLASSIFICATION_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: 'AC00000000000000000000000000000000',
      TWILIO_AUTH_TOKEN: 'deployed',
      TWILIO_LOOKUP_BASE_URL: fake.url,
      TWILIO_REQUESTS_PER_SECOND: '200',
      TWILIO_ATTEMPTS: '3',
      CLASSIFY_CONCURRENCY: '4',
    });
    await classify.kill();
    const org = await admin.createOrganization({ name: 'Deployed paid lookups', subscriptionActive: true, credits: 1000 });
    const user = await admin.createUser('paid@example.com');
    await admin.addMember(org.id, user.id, 'owner');
    key = (await admin.mintKey(org.id, user.id)).key;
  }, 300_000);

  afterAll(async () => {
    await stack?.stop();
    await fake?.close();
  });

  it('a chunk whose container is killed with SIGKILL while its lookups wait resumes from its checkpoint: every number paid once', async () => {
    const created = await upload();
    await waitFor('20 paid lookups', () => (fake.paidTotal() >= 20 ? true : null), 120_000, 20);
    // New requests are held unanswered; once each of the 4 workers waits on one, every answer
    // paid so far is in the checkpoint (a worker records its answer before taking another).
    fake.hold();
    await waitFor('every worker waiting on the provider', () => (fake.held >= 4 ? true : null), 60_000, 20);
    await classify.kill();
    fake.release();
    await stack.settleWorkflows();
    expect((await getUpload(created.id))?.status).toBe('completed');
    expect(phones.map((p) => fake.paid.get(p) ?? 0)).toEqual(phones.map(() => 1));
    expect(await getUpload(created.id)).toMatchObject({ lookups_paid: 120, lookups_cached: 0 });
  });

  it('a second upload of the same numbers is answered from the lookup cache: nothing paid, charged and answered the same', async () => {
    const paidBefore = fake.paidTotal();
    const created = await upload();
    await stack.settleWorkflows();
    const done = await getUpload(created.id);
    expect(done?.status).toBe('completed');
    expect(fake.paidTotal()).toBe(paidBefore);
    expect(done).toMatchObject({ lookups_paid: 0, lookups_cached: 120 });
    expect(created.credits_charged).toBe(120);
  });

  it('made only AWS calls the functions\' IAM policies allow (the limiter\'s lease, the cache, the checkpoint)', () => {
    expect(stack.endpoint.unknown).toEqual([]);
    expect(evaluateCalls(stack.assembly.template, stack.resolver, stack.endpoint.calls).denied).toEqual([]);
  });
});
