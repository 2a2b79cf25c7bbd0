import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DocCommand } from './commands';
import { outputMatches } from './expectation';
import { buildScript } from './script';

// Runs one file's commands in one bash (its own process group, so what a block starts in the
// background ends with it) and judges each: exit code 0, and the output the docs state.

export interface CommandResult {
  command: DocCommand;
  verdict: 'ok' | 'failed' | 'not run';
  reason?: string;
  /** How long it ran, as the runner saw it (to 200 ms). */
  ms?: number;
}

const tail = (text: string, lines = 12) => text.trimEnd().split('\n').slice(-lines).join('\n');

export async function runFileCommands(commands: DocCommand[], workDir: string, outDir: string, env: Record<string, string>, commandTimeoutMs: number): Promise<CommandResult[]> {
  mkdirSync(outDir, { recursive: true });
  const scriptPath = join(outDir, 'script.sh');
  writeFileSync(scriptPath, buildScript(commands));
  const child = spawn('bash', [scriptPath], {
    env: { ...process.env, ...env, DOCS_CHECK_OUT: outDir, DOCS_CHECK_CWD: workDir },
    stdio: 'ignore',
    detached: true,
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let done = false;
  void exited.then(() => (done = true));
  let timedOut: number | null = null;
  let current = -1;
  let since = Date.now();
  const durations = new Map<number, number>();
  while (!done) {
    await new Promise((r) => setTimeout(r, 200));
    const written = existsSync(join(outDir, 'current')) ? readFileSync(join(outDir, 'current'), 'utf8').trim() : '';
    // Empty while the script rewrites it: the command is the one before.
    const now = written === '' ? current : Number(written);
    if (now !== current) {
      durations.set(current, Date.now() - since);
      [current, since] = [now, Date.now()];
    }
    if (!done && Date.now() - since > commandTimeoutMs) {
      timedOut = current;
      break;
    }
  }
  // The whole group: the script, and whatever its blocks left running (a receiver in the background).
  try {
    process.kill(-child.pid!, 'SIGKILL');
  } catch {
    // already gone
  }
  await exited;
  durations.set(current, Date.now() - since);
  const read = (name: string) => (existsSync(join(outDir, name)) ? readFileSync(join(outDir, name), 'utf8') : null);
  return commands.map((command, index): CommandResult => ({ ...judge(command, index), ms: durations.get(index) }));

  function judge(command: DocCommand, index: number): CommandResult {
    if (timedOut === index) return { command, verdict: 'failed', reason: `still running after ${commandTimeoutMs} ms; stderr:\n${tail(read(`${index}.err`) ?? '')}` };
    const rc = read(`${index}.rc`);
    if (rc === null) return { command, verdict: 'not run' };
    const out = read(`${index}.out`) ?? '';
    const err = read(`${index}.err`) ?? '';
    if (rc.trim() !== '0') return { command, verdict: 'failed', reason: `exit code ${rc.trim()}; stdout:\n${tail(out)}\nstderr:\n${tail(err)}` };
    if (command.expect !== null && !outputMatches(command.expect, out)) {
      return { command, verdict: 'failed', reason: `the docs say it prints:\n${command.expect}\nit printed:\n${tail(out, 20)}` };
    }
    return { command, verdict: 'ok' };
  }
}
