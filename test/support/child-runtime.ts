import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';
import { bundledEntry } from './bundled-entry';
import { tempDir } from './temp-dirs';

const ROOT = resolve(import.meta.dirname, '../..');
// The Node 22 of the `node` devDependency, as npm scripts run it. One process (no tsx CLI in
// between), so a kill reaches the runtime itself.
const NODE = join(ROOT, 'node_modules/node/bin/node');

export interface ChildRuntime {
  process: ChildProcess;
  url: string;
  /** The embedded S3 endpoint, as the banner shows it. */
  s3Url: string | null;
  /** The demo key, on the start that created the demo account. */
  apiKey: string | null;
  output(): string;
  /** Resolves with the exit code (or signal) once the process is gone. */
  exited: Promise<number | string | null>;
  kill(signal?: NodeJS.Signals): Promise<number | string | null>;
}

const started = new Set<ChildProcess>();

/** Kills every child this process started and has not seen exit (call from afterAll). */
export async function killAllChildRuntimes(): Promise<void> {
  await Promise.all(
    [...started].map((child) => new Promise<void>((done) => {
      if (child.exitCode !== null || child.signalCode !== null) return done();
      child.once('exit', () => done());
      child.kill('SIGKILL');
    })),
  );
}

export const freshDataDir = (): string => tempDir('pvs-child-');

/**
 * `npm start`'s program (bin/local.ts, bundled: ./bundled-entry.ts) as a child process on `dataDir`,
 * on a free port; resolves once the banner shows the URL. Used where a test needs the real process:
 * to see it survive a request, or to kill -9 it.
 */
export async function startChildRuntime(dataDir: string, env: Record<string, string> = {}): Promise<ChildRuntime> {
  const child = spawn(NODE, [await bundledEntry('bin/local.ts')], {
    cwd: ROOT,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, POWERTOOLS_LOG_LEVEL: 'ERROR', CONTACT_POOL_INTERVAL_MS: '3600000', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.add(child);
  child.once('exit', () => started.delete(child));
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
        s3Url: /s3rver \(embedded\) at (http:\/\/\S+)/.exec(out)?.[1] ?? null,
        apiKey: /(svc_live_[A-Za-z0-9_-]+)/.exec(out)?.[1] ?? null,
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
