import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { bundledEntry } from '../../support/bundled-entry';
import { freshDataDir, killAllChildRuntimes, startChildRuntime } from '../../support/child-runtime';
import { waitFor } from '../../support/wait';

// The console's demo passwords are printed by the `npm start` that creates them, not by every start
// (secrets in every start's log); later starts say how to see them again: `npm run admin --
// console-passwords`, which reads them from the data folder.

const run = promisify(execFile);
afterEach(killAllChildRuntimes);

const signIns = /owner sign-in +demo@example\.com +password (\S+)\n +member sign-in member@example\.com +password (\S+)/;

describe('console demo passwords', () => {
  it('printed on the first start only; later starts point to the admin command, which shows them', async () => {
    const dataDir = freshDataDir();
    const first = await startChildRuntime(dataDir);
    const shown = await waitFor('the first banner', () => signIns.exec(first.output()));
    const [, owner, member] = shown;
    await first.kill('SIGTERM');

    const second = await startChildRuntime(dataDir);
    const banner = await waitFor('the second banner', () => (second.output().includes('Press Ctrl-C to stop.') ? second.output() : null));
    expect(banner).not.toContain(owner);
    expect(banner).not.toContain(member);
    expect(banner).toContain(`sign-ins       demo@example.com, member@example.com: passwords printed on the first start; again: DATA_DIR=${dataDir} npm run -s admin -- console-passwords`);

    // Beside the running instance, and on the stopped folder.
    const admin = async () => JSON.parse((await run(process.execPath, [await bundledEntry('bin/admin.ts'), 'console-passwords'], { env: { ...process.env, DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR' } })).stdout) as unknown;
    const expected = { owner: { email: 'demo@example.com', password: owner }, member: { email: 'member@example.com', password: member } };
    expect(await admin()).toEqual(expected);
    await second.kill('SIGTERM');
    expect(await admin()).toEqual(expected);
  });
});
