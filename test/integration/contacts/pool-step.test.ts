import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { useTestService } from '../../support/runtime';
import * as admin from '../../../lambdas/admin/admin';
import { getBalance } from '../../../lambdas/credits/credits';
import { runContactPool } from '../../../lambdas/contacts/pool-job';
import { notifyPool } from '../../../lambdas/contacts/pool-step';
import { classifyChunk } from '../../../lambdas/uploads/pipeline/classify-chunk';
import { fail } from '../../../lambdas/uploads/pipeline/fail';
import { finalize } from '../../../lambdas/uploads/pipeline/finalize';
import { prepare } from '../../../lambdas/uploads/pipeline/prepare';
import { recoverUploads } from '../../../lambdas/uploads/reconcile';
import { getUpload } from '../../../lambdas/uploads/upload-repository';

// Uploads and contacts do not call each other: the upload steps end the upload, and the contacts
// of a pool get their outcome only in the workflow's NotifyPool step (or from recovery when that
// step never ran). Here the runtime's workflow port only records what was started, and the test
// runs each step itself, in the order the definition gives.
const started: string[] = [];
const service = useTestService({ ports: { workflow: async (uploadId) => void started.push(uploadId) } });

async function pooledContacts(phones: string[]) {
  const org = await admin.createOrganization({ name: 'Pool steps', credits: 100 });
  const user = await admin.createUser(`s-${org.id}@example.com`);
  await admin.addMember(org.id, user.id, 'owner');
  const { key } = await admin.mintKey(org.id, user.id);
  const ids: string[] = [];
  for (const phone of phones) {
    const res = await service.request('POST', '/api/v2/contacts', { key, body: { phone } });
    expect(res.status).toBe(201);
    ids.push(((await res.json()) as { id: string }).id);
  }
  const run = await runContactPool(service.runtime.ports);
  expect(run.uploads).toHaveLength(1);
  expect(started).toContain(run.uploads[0]);
  const status = async () => Promise.all(ids.map(async (id) => ((await (await service.request('GET', `/api/v2/contacts/${id}`, { key })).json()) as { status: string }).status));
  return { org, uploadId: run.uploads[0]!, status };
}

async function processUpTo(uploadId: string) {
  const { chunks } = await prepare({ upload_id: uploadId });
  for (const chunk of chunks) await classifyChunk(service.runtime.ports, { upload_id: uploadId, chunk });
  return chunks;
}

describe('the contact pool is a step of the upload workflow', () => {
  it('the definition runs NotifyPool after Finalize and after MarkFailed', () => {
    const asl = JSON.parse(readFileSync('statemachines/upload-processing.asl.json', 'utf8')) as { States: Record<string, { Type: string; Next?: string; End?: boolean; Resource?: string; ResultPath?: string }> };
    expect(asl.States.Finalize!.Next).toBe('NotifyPool');
    expect(asl.States.MarkFailed!.Next).toBe('NotifyPool');
    // MarkFailed's answer must not replace the state NotifyPool reads its upload id from.
    expect(asl.States.MarkFailed!.ResultPath).toBe('$.failed');
    expect(asl.States.NotifyPool).toMatchObject({ Type: 'Task', Resource: '${NotifyPoolFunctionArn}', End: true });
  });

  it('Finalize completes the upload only; NotifyPool completes its contacts, once', async () => {
    const { uploadId, status } = await pooledContacts(['4155550100', '4155550101']);
    const chunks = await processUpTo(uploadId);
    expect(await finalize(service.runtime.ports, { upload_id: uploadId, chunks })).toEqual({ status: 'completed' });
    expect(await status()).toEqual(['processing', 'processing']);
    expect(await notifyPool(service.runtime.ports, { upload_id: uploadId })).toEqual({ status: 'completed' });
    expect(await status()).toEqual(['completed', 'completed']);
    expect(await notifyPool(service.runtime.ports, { upload_id: uploadId })).toEqual({ status: 'completed' });
    expect(await status()).toEqual(['completed', 'completed']);
  });

  it('MarkFailed fails and refunds the upload only; NotifyPool fails and refunds its contacts', async () => {
    const { org, uploadId, status } = await pooledContacts(['4155550102', '4155550103']);
    await processUpTo(uploadId);
    const charged = (await getBalance(org.id)).total;
    expect(await fail(service.runtime.ports, { upload_id: uploadId, error: { Error: 'States.Timeout' } })).toEqual({ status: 'failed' });
    expect(await status()).toEqual(['processing', 'processing']);
    await notifyPool(service.runtime.ports, { upload_id: uploadId });
    expect(await status()).toEqual(['failed', 'failed']);
    expect((await getBalance(org.id)).total).toBe(charged + 2);
  });

  it('recovery settles the contacts of a pool upload whose NotifyPool never ran, and takes the upload off the watch', () => service.clock.run(async () => {
    const { uploadId, status } = await pooledContacts(['4155550104']);
    const chunks = await processUpTo(uploadId);
    await finalize(service.runtime.ports, { upload_id: uploadId, chunks });
    expect(await status()).toEqual(['processing']);
    service.clock.set(() => Date.now() + 6 * 60_000);
    try {
      expect(await recoverUploads(service.runtime.ports)).toMatchObject({ settled: 1 });
      expect(await status()).toEqual(['completed']);
      expect(await recoverUploads(service.runtime.ports)).toMatchObject({ settled: 0 });
    } finally {
      service.clock.set(null);
    }
    expect((await getUpload(uploadId))?.status).toBe('completed');
  }));
});
