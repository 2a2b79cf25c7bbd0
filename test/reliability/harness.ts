import { localStoreSecret } from '../../local/environment';
import type { SigningSecret } from '../../local/sigv4';
import { spawn, type ChildProcess } from 'node:child_process';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { tempDir } from '../support/temp-dirs';
import { bundledEntry } from '../support/bundled-entry';
import { scaled } from '../support/wait';

export interface Child {
  url: string;
  apiKey: string;
  organizationId: string;
  dynamo: string;
  dataDir: string;
  /** What the child's table takes a request signed with: its data folder's secret (local/embedded-dynamodb.ts). */
  credentials: SigningSecret;
  process: ChildProcess;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  request(method: string, path: string, body?: unknown): Promise<Response>;
  stop(): Promise<void>;
  /** The last 4,000 characters the child wrote to stderr, for a failing test's message. */
  stderrTail(): string;
}

/** A crash test's data folder, kept when the file fails (test/support/remove-temp-dirs.ts). */
export const newDataDir = (): string => tempDir('pvs-crash-');

/** Starts test/reliability/child-runtime.ts (bundled: test/support/bundled-entry.ts) on `dataDir` and waits for its ready line. */
export async function startChild(dataDir: string, env: Record<string, string> = {}, credits = 1000): Promise<Child> {
  const childEnv: Record<string, string | undefined> = { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR', CONTACT_POOL_INTERVAL_MS: '300', LOCAL_RECOVERY_INTERVAL_MS: '3600000', ...env };
  // The child's own defaults, not whatever this process was given.
  delete childEnv.TABLE_NAME;
  delete childEnv.FAULT_CRASH_AT;
  if (env.FAULT_CRASH_AT) childEnv.FAULT_CRASH_AT = env.FAULT_CRASH_AT;
  const proc = spawn(process.execPath, [await bundledEntry('test/reliability/child-runtime.ts'), dataDir, String(credits)], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => proc.on('exit', (code, signal) => resolve({ code, signal })));
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ready = await new Promise<Record<string, string>>((resolve, reject) => {
    let out = '';
    proc.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"ready":true'));
      if (line) resolve(JSON.parse(line) as Record<string, string>);
    });
    void exited.then((e) => reject(new Error(`child exited before ready (${e.code ?? e.signal}): ${stderr.slice(-2000)}`)));
  });
  const child: Child = {
    url: ready.url!,
    apiKey: ready.apiKey!,
    organizationId: ready.organizationId!,
    dynamo: ready.dynamo!,
    dataDir,
    credentials: localStoreSecret(dataDir),
    process: proc,
    exited,
    request: (method, path, body) =>
      fetch(`${ready.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${ready.apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    stderrTail: () => stderr.slice(-4000),
    stop: async () => {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
      await exited;
    },
  };
  return child;
}

/** The types of the events recorded for an organization, read from the child's table. */
export async function eventTypes(child: Child): Promise<string[]> {
  const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: child.dynamo, region: 'us-east-1', credentials: child.credentials }));
  const out = await client.send(
    new QueryCommand({ TableName: 'phone-validation', IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${child.organizationId}#EVENTS` } }),
  );
  client.destroy();
  return (out.Items ?? []).map((i) => String(i.type)).sort();
}

/** The shared condition wait (test/support/wait.ts): the bound scales with the machine's load. */
export { waitFor } from '../support/wait';

/**
 * Starts a child that kills itself at crash point `point`, runs `act` against it, waits for the
 * kill, and starts a second child on the same data folder. Both are pushed onto `children`.
 */
export async function crashThenRestart(point: string, act: (c: Child) => Promise<unknown>, children: Child[], env: Record<string, string> = {}): Promise<Child> {
  const dataDir = newDataDir();
  const first = await startChild(dataDir, { ...env, FAULT_CRASH_AT: point });
  children.push(first);
  await act(first).catch(() => undefined); // the process may die before it answers
  const died = await Promise.race([first.exited, new Promise<null>((r) => setTimeout(() => r(null), scaled(60_000)))]);
  if (died?.signal !== 'SIGKILL') throw new Error(`the process did not reach crash point ${point} (${JSON.stringify(died)})`);
  const second = await startChild(dataDir, env);
  children.push(second);
  return second;
}
