import { createRequire } from 'node:module';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';

// `npm start`'s program (bin/local.ts, a real child process) refusing a data folder it must not
// serve: one line saying what is wrong and what to do, exit code 1, no stack trace.

const require = createRequire(import.meta.url);
const { Level } = createRequire(require.resolve('dynalite'))('level') as {
  Level: new (path: string, o: { valueEncoding: 'json' }) => { open(): Promise<void>; close(): Promise<void>; put(k: string, v: unknown): Promise<void> };
};

afterEach(killAllChildRuntimes);

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
