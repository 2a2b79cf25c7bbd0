import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { docFileNames, readDocFile } from './docs-files';
import { runFileCommands, type CommandResult } from './run-file';
import { startService } from './service';
import { makeWorkDir } from './work-dir';
import { freePortPair, randomPortBelowEphemeralRange } from '../../local/free-port-pair';

// `npm run docs:check`: every shell block of README.md and docs/*.md run as written, in order per
// file, against a freshly started local service (own ports, data folder in a temporary folder, no
// network beyond loopback), each command's output held to its `# → …` comment. Blocks the docs
// mark `<!-- docs-check: skip REASON -->` (AWS, LocalStack, a second service) are listed, never
// silently left out. `--static` checks only the convention, without the service.
// Exit code 1 when any block breaks the convention, fails or prints other than the docs say.

const root = join(import.meta.dirname, '../..');
// Node's compile cache for the service and every `npm run admin` the blocks start (as the suite
// does, vitest.config.ts): each admin command loads the AWS SDK and the service again.
process.env.NODE_COMPILE_CACHE ??= join(root, 'node_modules', '.cache', 'node-compile-cache');
const staticOnly = process.argv.includes('--static');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const files = docFileNames(root)
  .filter((file) => only.length === 0 || only.includes(file))
  .map((file) => readDocFile(root, file));

let failed = 0;
for (const file of files) {
  for (const problem of file.problems) console.log(`PROBLEM ${problem}`);
  failed += file.problems.length;
}
const skipped = files.flatMap((file) => file.skipped);
console.log(`\n${skipped.length} block(s) marked not runnable here:`);
for (const block of skipped) console.log(`  skip ${block.file}:${block.line}: ${block.skip}`);
const total = files.reduce((n, file) => n + file.commands.length, 0);

if (!staticOnly) {
  const temp = mkdtempSync(join(tmpdir(), 'docs-check-'));
  const commandTimeoutMs = Number(process.env.DOCS_CHECK_COMMAND_TIMEOUT_MS ?? 300_000);
  // As the README starts it for its webhook walkthrough (WEBHOOKS_ALLOW_LOOPBACK=true npm start);
  // contacts pooled every 2 s instead of 15 s, so the blocks that wait for a result wait less.
  const service = await startService(root, join(temp, 'data'), { WEBHOOKS_ALLOW_LOOPBACK: 'true', CONTACT_POOL_INTERVAL_MS: '2000' }, commandTimeoutMs);
  try {
    const workDir = makeWorkDir(root, join(temp, 'work'));
    // The README's example receiver on a free port (its blocks default to 4000): a fixed port let a
    // second check running at once (two copies of the suite) ping the first one's receiver.
    const receiverPort = String((await freePortPair('127.0.0.1', randomPortBelowEphemeralRange())) ?? 4000);
    for (const [index, file] of files.entries()) {
      if (file.commands.length === 0) continue;
      console.log(`\n${file.file}: ${file.commands.length} command(s)`);
      const results = await runFileCommands(file.commands, workDir, join(temp, 'out', String(index)), { ...service.vars, RECEIVER_PORT: receiverPort }, commandTimeoutMs);
      for (const result of results) console.log(describe(file.file, result));
      failed += results.filter((r) => r.verdict !== 'ok').length;
    }
  } finally {
    await service.stop();
    if (failed === 0) rmSync(temp, { recursive: true, force: true });
    else console.log(`\nkept for a look: ${temp} (the service's data, each command's output under out/)`);
  }
}

console.log(`\ndocs:check ${staticOnly ? '(static) ' : ''}${failed === 0 ? 'passed' : `FAILED (${failed})`}: ${total} command(s) in ${files.length} file(s)${staticOnly ? ' not run' : ''}, ${skipped.length} block(s) skipped as marked`);
process.exit(failed === 0 ? 0 : 1);

function describe(file: string, result: CommandResult): string {
  const first = result.command.text.split('\n')[0]!.slice(0, 110);
  const took = result.ms === undefined ? '' : ` (${(result.ms / 1000).toFixed(1)} s)`;
  const head = `  ${result.verdict === 'ok' ? 'ok     ' : result.verdict === 'failed' ? 'FAILED ' : 'not run'} ${file}:${result.command.line}${took} ${first}`;
  return result.reason ? `${head}\n${result.reason.replace(/^/gm, '      ')}` : head;
}
