import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { bundledEntry } from '../support/bundled-entry';
import { newDataDir, startChild, waitFor, type Child } from './harness';
import { indexMismatches } from './index-agreement';
import { scaled } from '../support/wait';

// kill -9 while a console draft is being mapped or confirmed (test/reliability/draft-child.ts runs
// the in-app flow in process), then a restart on the same data folder: the draft leaves its passing
// state as docs/reliability.md says (validating -> pending_mapping; confirming -> the upload it
// charged, or awaiting_confirmation with nothing charged), and credits are exact.

const CHILD_TEST_MS = scaled(300_000);
const children: Child[] = [];
afterEach(async () => {
  while (children.length) await children.pop()!.stop();
});

/** Runs draft-child.ts on a fresh data folder until it kills itself at `point`; the draft's id. */
async function crashedDraft(point: string, action: 'map' | 'confirm'): Promise<{ dataDir: string; draftId: string }> {
  const dataDir = newDataDir();
  const env: Record<string, string | undefined> = { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR', LOCAL_RECOVERY_INTERVAL_MS: '3600000', FAULT_CRASH_AT: point };
  delete env.TABLE_NAME;
  const proc = spawn(process.execPath, [await bundledEntry('test/reliability/draft-child.ts'), dataDir, action], { env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  proc.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exit = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  if (exit.signal !== 'SIGKILL') {
    proc.kill('SIGKILL');
    throw new Error(`draft child did not reach ${point} (${JSON.stringify(exit)}): ${out} ${err.slice(-2000)}`);
  }
  const line = out.split('\n').find((l) => l.startsWith('{"draftId"'));
  return { dataDir, draftId: (JSON.parse(line!) as { draftId: string }).draftId };
}

async function draftItem(c: Child, id: string): Promise<Record<string, unknown> | undefined> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: c.dynamo, region: 'us-east-1', credentials: c.credentials }));
  try {
    return (await client.send(new GetCommand({ TableName: 'phone-validation', Key: { pk: `WEBUPLOAD#${id}`, sk: 'META' }, ConsistentRead: true }))).Item;
  } finally {
    client.destroy();
  }
}

const balance = async (c: Child): Promise<number> => ((await (await c.request('GET', '/api/v1/credits/balance')).json()) as { total: number }).total;
const uploads = async (c: Child) => ((await (await c.request('GET', '/api/v1/uploads')).json()) as { data: { id: string; status: string; credits_charged: number }[] }).data;

async function restarted(dataDir: string): Promise<Child> {
  const c = await startChild(dataDir);
  children.push(c);
  return c;
}

describe('console drafts survive kill -9 at every step', () => {
  it('killed at draft.after-validating: the draft is pending_mapping again, off the recovery list, nothing charged', async () => {
    const { dataDir, draftId } = await crashedDraft('draft.after-validating', 'map');
    const c = await restarted(dataDir);
    const draft = await draftItem(c, draftId);
    expect(draft).toMatchObject({ status: 'pending_mapping', validated_rows: 0 });
    expect(draft?.gsi3pk).toBeUndefined();
    expect(await balance(c)).toBe(1000);
    expect(await indexMismatches(c.dynamo, c.credentials)).toEqual([]);
  }, CHILD_TEST_MS);

  it('killed at draft.after-confirming: the draft is awaiting_confirmation again, no upload, nothing charged', async () => {
    const { dataDir, draftId } = await crashedDraft('draft.after-confirming', 'confirm');
    const c = await restarted(dataDir);
    const draft = await draftItem(c, draftId);
    expect(draft).toMatchObject({ status: 'awaiting_confirmation' });
    expect(draft?.gsi3pk).toBeUndefined();
    expect(await uploads(c)).toEqual([]);
    expect(await balance(c)).toBe(1000);
  }, CHILD_TEST_MS);

  for (const point of ['upload.after-charge', 'draft.after-upload']) {
    it(`killed at ${point} while confirming: the draft is confirmed and its upload completes, charged once`, async () => {
      const { dataDir, draftId } = await crashedDraft(point, 'confirm');
      const c = await restarted(dataDir);
      const draft = await draftItem(c, draftId);
      expect(draft).toMatchObject({ status: 'confirmed' });
      expect(draft?.gsi3pk).toBeUndefined();
      const done = await waitFor('the upload completed', async () => {
        const list = await uploads(c);
        return list.length === 1 && list[0]!.status === 'completed' ? list : null;
      });
      expect(done[0]).toMatchObject({ id: draftId, credits_charged: 100 });
      expect(await balance(c)).toBe(900);
    }, CHILD_TEST_MS);
  }
});
