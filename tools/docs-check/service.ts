import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { freePortPair, randomPortBelowEphemeralRange } from '../../local/free-port-pair';

// The local service as `npm start` runs it (bin/local.ts under tsx), on its own ports and data
// folder, and the variables its banner's `export …` line sets for the docs' examples.

export interface StartedService {
  /** API, KEY, ORG and DATA_DIR, from the banner's export line. */
  vars: Record<string, string>;
  output: () => string;
  stop: () => Promise<void>;
}

const BANNER_EXPORT = /^\s*export (API=\S+ KEY=\S+ ORG=\S+(?: DATA_DIR=\S+)?)\s*$/m;

/** The variables of the banner's export line, or null while it has not been printed. */
export function bannerVars(output: string): Record<string, string> | null {
  const line = BANNER_EXPORT.exec(output);
  if (!line) return null;
  return Object.fromEntries(line[1]!.split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
}

export async function startService(root: string, dataDir: string, env: Record<string, string>, timeoutMs: number): Promise<StartedService> {
  const port = await freePortPair('127.0.0.1', randomPortBelowEphemeralRange());
  if (port === null) throw new Error('no free port pair for the service');
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(root, 'bin/local.ts')], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    // A shutdown that hangs is cut after 20 s.
    const cut = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await exited;
    clearTimeout(cut);
  };
  const until = Date.now() + timeoutMs;
  for (;;) {
    const vars = bannerVars(output);
    if (vars) return { vars, output: () => output, stop };
    if (child.exitCode !== null) throw new Error(`the service did not start:\n${output}`);
    if (Date.now() > until) {
      await stop();
      throw new Error(`the service printed no banner in ${timeoutMs} ms:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
