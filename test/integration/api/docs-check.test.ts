import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { scaled } from '../../support/wait';

// `npm run docs:check` as CI runs it: every README and docs/*.md shell block against a fresh local
// service, each command's output held to its `# →` comment (tools/docs-check). It fails when a
// block does not run or prints other than the docs say.

const root = join(import.meta.dirname, '../../..');

it(
  'every README and docs block runs as written and prints what its comment says',
  async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'tools/docs-check/main.ts'], {
      cwd: root,
      // The service's request logs are not what this test reads.
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'ERROR', DOCS_CHECK_COMMAND_TIMEOUT_MS: String(scaled(120_000)) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, output).toBe(0);
    expect(output).toMatch(/docs:check passed: \d+ command\(s\) in \d+ file\(s\), \d+ block\(s\) skipped as marked/);
    expect(output).not.toMatch(/^\s+(FAILED|not run) /m);
  },
  scaled(600_000),
);
