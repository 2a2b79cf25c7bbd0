import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePortPair, randomPortBelowEphemeralRange } from '../../../local/free-port-pair';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';

// `npm start`'s program (bin/local.ts, a real child process) refusing a data folder it must not
// serve: one line saying what is wrong and what to do, exit code 1, no stack trace.

const require = createRequire(import.meta.url);
const { Level } = createRequire(require.resolve('dynalite'))('level') as {
  Level: new (path: string, o: { valueEncoding: 'json' }) => { open(): Promise<void>; close(): Promise<void>; put(k: string, v: unknown): Promise<void> };
};

const blockers: Server[] = [];
afterEach(async () => {
  await killAllChildRuntimes();
  for (const server of blockers.splice(0)) await new Promise((done) => server.close(done));
});

/** Something else listening on `port` of loopback. */
const block = (port: number): Promise<void> =>
  new Promise((done, fail) => {
    const server = createServer();
    blockers.push(server);
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });

/** The output of a start that must be refused (the child's, when it exits before serving). */
const refusedStart = (dataDir: string, env: Record<string, string> = {}): Promise<string> =>
  startChildRuntime(dataDir, env).then(
    (child) => {
      void child.kill();
      throw new Error(`the start was not refused:\n${child.output()}`);
    },
    (error: Error) => error.message,
  );

describe('npm start refuses what it must not serve', () => {
  it('a damaged .ldb in the embedded table: one line naming the file, that nothing started or changed, and to restore DATA_DIR from a backup', async () => {
    const dataDir = freshDataDir();
    const table = join(dataDir, 'dynamodb');
    // LevelDB moves its log into an .ldb file when it opens again.
    for (const write of [true, false]) {
      const level = new Level(table, { valueEncoding: 'json' });
      await level.open();
      if (write) await level.put('table~x', { TableName: 'x' });
      await level.close();
    }
    writeFileSync(`${table}.closed-cleanly`, '');
    const ldb = readdirSync(table).find((n) => n.endsWith('.ldb'))!;
    writeFileSync(join(table, ldb), Buffer.alloc(readFileSync(join(table, ldb)).length, 7));

    const output = await refusedStart(dataDir);
    expect(output).toMatch(/exited \(1\)/);
    expect(output).toContain(`Cannot start: ${ldb} in ${table} cannot be read (LevelDB: Corruption:`);
    expect(output).toContain(`so the service did not start; nothing in the data folder was repaired or removed. Restore the data folder ${dataDir} (DATA_DIR) from a backup`);
    expect(output).not.toMatch(/^\s+at /m); // no stack trace
    expect(output).not.toContain('dynalite');
    expect(existsSync(`${table}.closed-cleanly`)).toBe(true);
  });
});

describe('npm start on busy ports', () => {
  it('the API port and the file store port both busy: one line names both, each with its setting', async () => {
    const port = (await freePortPair('127.0.0.1', randomPortBelowEphemeralRange()))!;
    await block(port);
    await block(port + 1);
    const output = await refusedStart(freshDataDir(), { PORT: String(port) });
    expect(output).toMatch(/exited \(1\)/);
    expect(output).toContain(`Cannot start: 127.0.0.1:${port} (the API: PORT) and 127.0.0.1:${port + 1} (the embedded file store: FILES_PORT, default PORT + 1) are already in use. Stop what is using them, or start on free ports (PORT=`);
  });

  it('with FILES_PORT set, the suggestion gives both settings', async () => {
    const port = (await freePortPair('127.0.0.1', randomPortBelowEphemeralRange()))!;
    await block(port + 1);
    const output = await refusedStart(freshDataDir(), { PORT: String(port), FILES_PORT: String(port + 1) });
    expect(output).toContain(`Cannot start: 127.0.0.1:${port + 1} (the embedded file store: FILES_PORT) is already in use. Stop what is using it, or start on free ports (PORT=`);
    expect(output).toMatch(/\(PORT=(\d+) FILES_PORT=\d+ npm start\)/);
  });
});
