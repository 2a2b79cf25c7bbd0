import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const TSX = join(ROOT, 'node_modules/.bin/tsx');

export interface ChildRuntime {
  process: ChildProcess;
  url: string;
  /** The demo key, on the start that created the demo account. */
  apiKey: string | null;
  output(): string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string | null>;
  kill(signal?: NodeJS.Signals): Promise<number | string | null>;
}

export const freshDataDir = (): string => mkdtempSync(join(tmpdir(), 'pvs-child-'));

/**
 * `npm start` (bin/local.ts) as a child process on `dataDir`, on a free port; resolves once the
 * banner shows the URL. Used where a test needs the real process: to see it survive a request, or
 * to kill -9 it.
 */
export function startChildRuntime(dataDir: string, env: Record<string, string> = {}): Promise<ChildRuntime> {
  const child = spawn(TSX, ['bin/local.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR', CONTACT_POOL_INTERVAL_MS: '3600000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | string | null>((done) => child.once('exit', (code, signal) => done(code ?? signal)));
  return new Promise((ready, fail) => {
    const onData = () => {
      const url = /running at (http:\/\/\S+)/.exec(out)?.[1];
      if (!url) return;
      child.stdout.off('data', onData);
      ready({
        process: child,
        url,
        apiKey: /(svc_live_\w+)/.exec(out)?.[1] ?? null,
        output: () => out,
        exited,
        kill: (signal = 'SIGKILL') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout.on('data', onData);
    void exited.then((code) => fail(new Error(`local runtime exited (${code}) before it was ready:\n${out}`)));
  });
}
