import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as admin from '../../../lambdas/admin/admin';
import { reloadConfig } from '../../../lambdas/platform/config';
import { classifyChunk, type ClassifyChunkOutput } from '../../../lambdas/uploads/pipeline/classify-chunk';
import { prepare } from '../../../lambdas/uploads/pipeline/prepare';
import { getUpload } from '../../../lambdas/uploads/upload-repository';
import { failUpload } from '../../../lambdas/uploads/pipeline/fail';
import { createUploadWorkflowRunner } from '../../../local/workflow';
import { waitFor } from '../../support/wait';
import { bundledEntry } from '../../support/bundled-entry';
import { startFakeTwilio, type FakeTwilio } from '../../support/fake-twilio-lookup';
import { useTestService } from '../../support/runtime';

// Issue 27 item 1: ClassifyChunk is time-boxed and checkpoints every paid answer, so a chunk killed
// with SIGKILL, or out of budget, resumes where it stopped and no number is paid for twice. The
// provider is a Twilio Lookup stand-in that counts paid lookups (a 200 answer delivered); uploads
// are created through the API and their steps run by each test (the runtime's workflow port only
// records the start).

let fake: FakeTwilio;
const started: string[] = [];

beforeAll(async () => {
  fake = await startFakeTwilio();
  Object.assign(process.env, {
    CLASSIFICATION_PROVIDER: 'twilio',
    TWILIO_ACCOUNT_SID: 'AC123',
    TWILIO_AUTH_TOKEN: 'secret',
    TWILIO_ATTEMPTS: '3',
    TWILIO_REQUESTS_PER_SECOND: '500',
    TWILIO_LOOKUP_BASE_URL: fake.url,
    CLASSIFY_CONCURRENCY: '4',
  });
  reloadConfig();
});
const service = useTestService({ ports: { workflow: async (uploadId) => void started.push(uploadId) } });
afterAll(async () => {
  await fake.close();
});

const e164s = (n: number, area: number) => Array.from({ length: n }, (_, i) => `+1${area}555${String(3000 + i).padStart(4, '0')}`);

async function prepared(phones: string[]): Promise<{ uploadId: string; chunks: number[] }> {
  const org = await admin.createOrganization({ name: 'Checkpoints', credits: 10_000, subscriptionActive: true });
  const user = await admin.createUser(`ck-${org.id}@example.com`);
  await admin.addMember(org.id, user.id, 'owner');
  const key = (await admin.mintKey(org.id, user.id)).key;
  const form = new FormData();
  form.append('phone_columns', 'phone');
  form.append('file', new Blob([['phone', ...phones].join('\r\n') + '\r\n'], { type: 'text/csv' }), 'list.csv');
  const res = await fetch(`${service.url}/api/v1/uploads`, { method: 'POST', body: form, headers: { authorization: `Bearer ${key}` } });
  expect(res.status, await res.clone().text()).toBe(200);
  const uploadId = ((await res.json()) as { id: string }).id;
  expect(started).toContain(uploadId);
  return { uploadId, chunks: (await prepare({ upload_id: uploadId })).chunks };
}

/** The deployed ClassifyChunk entry in its own process, looping while the chunk is not done. */
async function chunkChild(uploadId: string, chunk: number) {
  const child = spawn(process.execPath, [await bundledEntry('test/support/classify-chunk-child.ts'), uploadId, String(chunk)], {
    env: { ...process.env, ...service.runtime.environment, POWERTOOLS_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  return { child, exited, output: () => out };
}

const paidFor = (phones: string[]) => phones.map((p) => fake.paid.get(p) ?? 0);

describe('time-boxed, checkpointed chunks: every paid lookup used once', () => {
  it('a chunk killed with SIGKILL mid-lookup resumes from its checkpoint: every number paid exactly once', async () => {
    const phones = e164s(100, 332);
    const { uploadId } = await prepared(phones);
    fake.options.delayMs = () => 5;
    const first = await chunkChild(uploadId, 0);
    await waitFor('20 paid lookups', async () => (fake.paidTotal() >= 20 ? true : null), 60_000);
    // New requests are held unanswered: once each of the 4 workers waits on one, every answer paid
    // before was recorded (a worker records its answer before it takes another number).
    fake.hold();
    await waitFor('every worker waiting on a lookup', async () => (fake.held >= 4 ? true : null), 60_000);
    const paidAtKill = fake.paidTotal();
    first.child.kill('SIGKILL');
    expect(await first.exited).toBe('SIGKILL');
    fake.release();
    expect(fake.paidTotal()).toBe(paidAtKill); // the held lookups were never answered: not paid

    const second = await chunkChild(uploadId, 0);
    expect(await second.exited, second.output()).toBe(0);
    expect(JSON.parse(second.output().trim().split('\n').at(-1)!)).toMatchObject({ done: true, count: 100, total: 100 });
    expect(paidFor(phones)).toEqual(phones.map(() => 1));
    // The four numbers in flight at the kill were asked for again, and paid once.
    expect(phones.filter((p) => fake.requests.get(p) === 2)).toHaveLength(4);

    const result = await classifyChunk(service.runtime.ports, { upload_id: uploadId, chunk: 0 });
    expect(result).toMatchObject({ done: true, count: 100 });
    expect(fake.paidTotal()).toBe(100); // done: nothing looked up again
    fake.options.delayMs = undefined;
  });

  it('killed while its workers hold claims: its retry takes its own claims over at once, and another upload of the same numbers waits on them: each number paid once', async () => {
    // Claims as long as they may be (90 s), outlasting this test's time: were they not taken over by
    // the same chunk's retry, both chunks below would wait the dead process's claims out.
    process.env.LOOKUP_CLAIM_SECONDS = '90';
    reloadConfig();
    try {
      const phones = e164s(100, 445);
      const one = await prepared(phones);
      const two = await prepared(phones);
      fake.options.delayMs = () => 5;
      const first = await chunkChild(one.uploadId, 0);
      await waitFor('20 paid lookups', async () => (paidFor(phones).reduce((a, b) => a + b, 0) >= 20 ? true : null), 60_000);
      fake.hold();
      await waitFor('every worker waiting on a lookup it claimed', async () => (fake.held >= 4 ? true : null), 60_000);
      first.child.kill('SIGKILL');
      expect(await first.exited).toBe('SIGKILL');
      fake.release();
      fake.options.delayMs = undefined;

      const [retry, other] = await Promise.all([chunkChild(one.uploadId, 0), classifyChunk(service.runtime.ports, { upload_id: two.uploadId, chunk: 0 })]);
      expect(await retry.exited, retry.output()).toBe(0);
      expect(JSON.parse(retry.output().trim().split('\n').at(-1)!)).toMatchObject({ done: true, count: 100 });
      expect(other).toMatchObject({ done: true, count: 100 });
      expect(paidFor(phones)).toEqual(phones.map(() => 1));
    } finally {
      delete process.env.LOOKUP_CLAIM_SECONDS;
      reloadConfig();
    }
  }, 80_000);

  it('a chunk whose budget runs out answers done false with its progress, and the next call goes on from there', async () => {
    process.env.CLASSIFY_TIME_BUDGET_MS = '0';
    process.env.UPLOAD_CHUNK_SIZE = '30';
    reloadConfig();
    try {
      const phones = e164s(100, 929);
      const { uploadId } = await prepared(phones);
      const answers: ClassifyChunkOutput[] = [];
      for (let i = 0; i < 20; i++) {
        answers.push(await classifyChunk(service.runtime.ports, { upload_id: uploadId, chunk: 0 }));
        if (answers.at(-1)!.done) break;
      }
      // A budget of 0 still moves the chunk on: one number per worker (4) per invocation.
      expect(answers.map((a) => a.count)).toEqual([4, 8, 12, 16, 20, 24, 28, 30]);
      expect(answers.map((a) => a.done)).toEqual([false, false, false, false, false, false, false, true]);
      // Chunk 0 (the first 30 numbers) only, each paid once.
      expect(paidFor(phones)).toEqual(phones.map((_, i) => (i < 30 ? 1 : 0)));
    } finally {
      delete process.env.CLASSIFY_TIME_BUDGET_MS;
      delete process.env.UPLOAD_CHUNK_SIZE;
      reloadConfig();
    }
  });

  it('the workflow loops a chunk through ClassifyChunk until it is done, and the upload completes', async () => {
    process.env.CLASSIFY_TIME_BUDGET_MS = '0';
    process.env.UPLOAD_CHUNK_SIZE = '40';
    reloadConfig();
    try {
      const phones = e164s(100, 646);
      const { uploadId } = await prepared(phones);
      let attempts = 0;
      const runner = createUploadWorkflowRunner(service.runtime.ports, { concurrency: 1, retryIntervalMs: 10, onAttempt: (_, state) => void (state === 'ClassifyChunk' && attempts++) });
      runner.start(uploadId, { upload_id: uploadId });
      await runner.settle();
      expect((await getUpload(uploadId))!.status).toBe('completed');
      // 3 chunks (40, 40, 20) at 4 numbers an invocation: 10 + 10 + 5 invocations.
      expect(attempts).toBe(25);
      expect(paidFor(phones)).toEqual(phones.map(() => 1));
    } finally {
      delete process.env.CLASSIFY_TIME_BUDGET_MS;
      delete process.env.UPLOAD_CHUNK_SIZE;
      reloadConfig();
    }
  });

  it('an upload recovery failed and refunded meanwhile buys nothing more: its chunks are skipped, Finalize leaves it failed', async () => {
    const phones = e164s(100, 718);
    const { uploadId } = await prepared(phones);
    const upload = (await getUpload(uploadId))!;
    expect(upload.status).toBe('processing');
    // What recovery does to an upload past its processing bound (reconcile-one.ts).
    const failed = await failUpload(service.runtime.ports, upload, 'Processing did not finish in time');
    expect(failed).toMatchObject({ status: 'failed', credits_refunded: upload.credits_charged });
    const paidBefore = fake.paidTotal();
    expect(await classifyChunk(service.runtime.ports, { upload_id: uploadId, chunk: 0 })).toEqual({ upload_id: uploadId, chunk: 0, done: true, count: 0, total: 0 });
    const runner = createUploadWorkflowRunner(service.runtime.ports, { concurrency: 1, retryIntervalMs: 10 });
    runner.start(uploadId, { upload_id: uploadId });
    await runner.settle();
    expect(fake.paidTotal()).toBe(paidBefore);
    expect(paidFor(phones)).toEqual(phones.map(() => 0));
    expect(await getUpload(uploadId)).toMatchObject({ status: 'failed', credits_refunded: upload.credits_charged });
  });
});
