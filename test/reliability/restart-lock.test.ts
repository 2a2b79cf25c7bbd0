import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from '../support/bundled-entry';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../support/child-runtime';

// `npm start` (bin/local.ts, as a real child process) refuses a data folder only while another
// instance lives on it: the guard is a lock the operating system drops with its process
// (local/instance-lock.ts), not a pid in a file, which a zombie or a reused pid kept "alive".

const run = promisify(execFile);
const CHILD_TEST_MS = 180_000;
afterEach(async () => {
  await killAllChildRuntimes();
});

describe('one instance per data folder, and only while it lives', () => {
  it("a runtime.json naming a live unrelated process (this test's) does not block a start", async () => {
    const dataDir = freshDataDir();
    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ pid: process.pid, apiUrl: 'http://127.0.0.1:1', dynamoEndpoint: 'http://127.0.0.1:1', s3Endpoint: 'http://127.0.0.1:1' }));
    const runtime = await startChildRuntime(dataDir);
    expect((await fetch(`${runtime.url}/openapi.json`)).status).toBe(200);
  }, CHILD_TEST_MS);

  it('a second instance on the same folder is refused with one clear line; after a kill -9 the folder starts again at once', async () => {
    const dataDir = freshDataDir();
    const first = await startChildRuntime(dataDir);
    const second = await startChildRuntime(dataDir).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(second).toContain(`Another instance (pid ${first.process.pid}) is already serving ${first.url} from ${dataDir}. Stop it first, or set DATA_DIR to use a different data folder.`);
    expect(second).toMatch(/exited \(1\)/);
    // The first one is untouched by the refused start.
    expect((await fetch(`${first.url}/openapi.json`)).status).toBe(200);

    expect(await first.kill('SIGKILL')).toBe('SIGKILL');
    // At once: no wait for the pid to be reaped or for any file to age.
    const third = await startChildRuntime(dataDir);
    expect((await fetch(`${third.url}/openapi.json`)).status).toBe(200);
  }, CHILD_TEST_MS);

  it('the admin CLI finds the running instance by the same lock, and the folder directly once it is gone', async () => {
    const dataDir = freshDataDir();
    // A stale record of a live process (this test) is no instance: the CLI opens the folder itself.
    writeFileSync(join(dataDir, 'runtime.json'), JSON.stringify({ pid: process.pid, apiUrl: 'http://127.0.0.1:1', dynamoEndpoint: 'http://127.0.0.1:1', s3Endpoint: 'http://127.0.0.1:1' }));
    const admin = async (...args: string[]) => (await run(process.execPath, [await bundledEntry('bin/admin.ts'), ...args], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' } })).stdout;
    const org = JSON.parse(await admin('create-org', '--name', 'Lock Org', '--credits', '7')) as { id: string };

    // Running: the CLI writes through the instance's store (LevelDB would refuse a second opener).
    const runtime = await startChildRuntime(dataDir);
    await admin('add-credits', '--org', org.id, '--amount', '5');
    expect(JSON.parse(await admin('balance', '--org', org.id))).toMatchObject({ total: 12 });
    await runtime.kill('SIGKILL');
    // Killed: the folder is free again, and the CLI opens it directly.
    expect(JSON.parse(await admin('balance', '--org', org.id))).toMatchObject({ total: 12 });
  }, CHILD_TEST_MS);
});
