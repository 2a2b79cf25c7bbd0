import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCommands } from '../../../tools/docs-check/commands';
import { runFileCommands } from '../../../tools/docs-check/run-file';
import { waitFor } from '../../support/wait';
import { tempDir } from '../../support/temp-dirs';

// The docs check's runner on blocks written here (bash, no service): it fails a command that
// exits non-zero or prints other than its `# →` comment, runs nothing after a failure, cuts a
// command that hangs, and ends what a block left running in the background.

const temp = tempDir('docs-check-runner-');
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let runs = 0;
const run = (code: string, timeoutMs = 30_000) => runFileCommands(parseCommands(code, 1), temp, join(temp, `out-${runs++}`), { GREETING: 'hello' }, timeoutMs);

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('docs:check runner', () => {
  it('passes commands that print what they say, with the variables it is given and those a block sets', async () => {
    const results = await run(['X=$(echo 42)', 'echo "{\\"x\\": $X}"   # → {"x":42}', 'echo $GREETING', '# → hel…'].join('\n'));
    expect(results.map((r) => r.verdict)).toEqual(['ok', 'ok', 'ok']);
  });

  it('fails a command that prints other than its comment says', async () => {
    const [result] = await run('echo 404   # → 204');
    expect(result!.verdict).toBe('failed');
    expect(result!.reason).toContain('the docs say it prints:\n204\nit printed:\n404');
  });

  it('fails a command that exits non-zero and runs nothing after it', async () => {
    const results = await run(['echo before', 'ls /no/such/folder', 'echo after   # → after'].join('\n'));
    expect(results.map((r) => r.verdict)).toEqual(['ok', 'failed', 'not run']);
    expect(results[1]!.reason).toMatch(/^exit code 2;[\s\S]*No such file/);
  });

  it('cuts a command that hangs', async () => {
    const results = await run(['sleep 600', 'echo after'].join('\n'), 1_500);
    expect(results.map((r) => r.verdict)).toEqual(['failed', 'not run']);
    expect(results[0]!.reason).toMatch(/^still running after 1500 ms/);
  });

  it('ends what a block left running in the background', async () => {
    const pidFile = join(temp, 'background.pid');
    await run(`sleep 600 & echo $! > ${pidFile}`);
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await waitFor('the background process ended', () => (alive(pid) ? null : true), 10_000);
  });
});
