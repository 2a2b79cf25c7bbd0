import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { debit, getBalance } from '../../../lambdas/credits/credits';
import { createUpload } from '../../../lambdas/uploads/create-upload';
import { recoverUploads } from '../../../lambdas/uploads/reconcile';

/** The charging part of upload recovery: what a crash left in `charging`. */
const reconcileStaleUploads = async (ports: Parameters<typeof recoverUploads>[0]) => {
  const { resumed, removed } = await recoverUploads(ports);
  return { resumed, removed };
};
import { filesBucket, putObject } from '../../../lambdas/platform/blob';
import { keys } from '../../../lambdas/uploads/upload';
import { getUpload, insertUpload } from '../../../lambdas/uploads/upload-repository';

const service = useTestService();

describe('uploads interrupted mid-create', () => {
  it('a charged upload left invisible is resumed; an uncharged one is removed; nothing is charged again', async () => {
    const org = await admin.createOrganization({ name: 'Crash', credits: 1000 });
    const principal = { organizationId: org.id, userId: service.userId, apiKeyId: 'k' };
    const csv = Buffer.from(['phone', ...Array.from({ length: 100 }, (_, i) => `212-555-${2000 + i}`)].join('\n'));
    // A normal create, then rewind its record to `charging` as if the process died right after the debit.
    const made = await createUpload(service.runtime.ports, principal, { csv, filename: 'a.csv', mapping: { phoneColumns: ['phone'] }, tier: 'standard', skipMobileLookup: false, source: 'api' });
    await service.runtime.settleWorkflows();
    const charged = { ...(await getUpload(made.id))!, id: '33333333-3333-4333-8333-333333333333', status: 'charging' as const, credits_charged: null, created_at: '2026-01-01T00:00:00.000Z' };
    await putObject(filesBucket(), keys.original(charged), csv, 'text/csv');
    await insertUpload(charged);
    await debit(org.id, `upload:${charged.id}`, 100, { reason: 'test', resourceId: charged.id });
    const uncharged = { ...charged, id: '44444444-4444-4444-8444-444444444444' };
    await insertUpload(uncharged);
    const before = await getBalance(org.id);

    const result = await reconcileStaleUploads(service.runtime.ports);
    expect(result).toMatchObject({ resumed: 1, removed: 1 });
    await service.runtime.settleWorkflows();
    expect(await getUpload(uncharged.id)).toBeNull();
    const resumed = (await getUpload(charged.id))!;
    expect(resumed).toMatchObject({ status: 'completed', credits_charged: 100 });
    expect(await getBalance(org.id)).toEqual(before);
    expect(await reconcileStaleUploads(service.runtime.ports)).toEqual({ resumed: 0, removed: 0 });
    // A fresh create in flight is left alone.
  });
});
