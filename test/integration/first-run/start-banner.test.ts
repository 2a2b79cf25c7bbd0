import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePortPair, randomPortBelowEphemeralRange } from '../../../local/free-port-pair';
import { buildLocalBundle, LOCAL_NODE_ARGS } from '../../../bin/local-bundle';
import { tempDir } from '../../support/temp-dirs';
import { ALLOCATOR_SETTINGS } from '../../../local/allocator-settings';

// `npm start` as a new user meets it (issue 16, item 12): real child processes of bin/local.ts,
// bundled and run as package.json's "start" does (bin/local-bundle.ts), on a fresh data folder. A start that fails before the key is shown says so in one line, and the next
// start shows a key rather than claiming one was printed.

const root = join(import.meta.dirname, '../../..');
const dataDir = tempDir('pvs-banner-');
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

function listen(port = 0): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
}

const portOf = (server: Server) => (server.address() as { port: number }).port;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

async function freePort(): Promise<number> {
  const server = await listen();
  const port = portOf(server);
  await close(server);
  return port;
}

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

// Built once, as `npm start` builds it before it runs it.
let bundle: Promise<string> | undefined;

async function start(port: number, env: Record<string, string | undefined> = {}): Promise<Started> {
  // The bundle run by Node as `npm start` runs it, one process: a kill reaches the server itself.
  const child = spawn(process.execPath, [...LOCAL_NODE_ARGS, await (bundle ??= buildLocalBundle())], {
    cwd: root,
    // The file store on a port of its own choosing: its default (the API's port + 1) may belong to
    // another test's server while files run in parallel.
    env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), FILES_PORT: '0', HOST: '127.0.0.1', DEBUG: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Waits for the banner's last line, or the process's end. */
async function banner(started: Started): Promise<string> {
  await Promise.race([
    started.exited,
    new Promise<void>((resolve) => {
      const check = () => (started.output().includes('Press Ctrl-C to stop.') ? resolve() : setTimeout(check, 100));
      check();
    }),
  ]);
  return started.output();
}

async function stop(started: Started): Promise<void> {
  started.child.kill('SIGTERM');
  await started.exited;
}

/** The admin CLI on the stopped instance's data folder. */
function admin(args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'bin/admin.ts', ...args], { cwd: root, env: { ...process.env, DATA_DIR: dataDir }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`admin ${args.join(' ')} exited ${code}`))));
  });
}

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

describe('npm start: first-run banner', () => {
  it('busy port: one clear line, non-zero exit; next start shows a key and the ids; the one after says it was printed', async () => {
    const blocker = await listen();
    const busy = await start(portOf(blocker));
    const code = await busy.exited;
    await close(blocker);
    expect(code).not.toBe(0);
    const lines = busy.output().split('\n').filter((l) => l.trim());
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Cannot start: 127\.0\.0\.1:\d+ \(the API: PORT\) is already in use\. .*PORT=\d+ npm start.*next successful start shows one/);
    // The suggestion works as given: its port and the next (the file store's default) are free.
    const suggested = Number(/PORT=(\d+) npm start/.exec(lines[0]!)![1]);
    await close(await listen(suggested));
    await close(await listen(suggested + 1));

    const port = await freePort();
    const second = await start(port);
    const shown = await banner(second);
    const key = /(svc_live_[\w-]{32})/.exec(shown)?.[1];
    expect(key, shown).toBeDefined();
    const org = new RegExp(`organization id +(${uuid})`).exec(shown)?.[1];
    const user = new RegExp(`user id +(${uuid})`).exec(shown)?.[1];
    expect(org && user, shown).toBeTruthy();
    const balance = await fetch(`http://127.0.0.1:${port}/api/v1/credits/balance`, { headers: { authorization: `Bearer ${key}` } });
    expect(balance.status).toBe(200);
    // The process the test started is the one serving, started again with glibc's malloc settings
    // (local/allocator-settings.ts): same id, the settings in its environment.
    if (process.platform === 'linux' && process.env.MALLOC_ARENA_MAX === undefined) {
      const environ = readFileSync(`/proc/${second.child.pid}/environ`, 'utf8').split('\0');
      for (const [name, value] of Object.entries(ALLOCATOR_SETTINGS)) expect(environ).toContain(`${name}=${value}`);
    }
    await stop(second);
    // The key minted by the failed start was never shown: it is revoked, the shown one is the only live one.
    const keys = JSON.parse(await admin(['list-keys', '--org', org!])) as { display_prefix: string; revoked_at: string | null }[];
    expect(keys).toHaveLength(2);
    expect(keys.filter((k) => k.revoked_at === null).map((k) => k.display_prefix)).toEqual([key!.slice(0, 12)]);

    const third = await start(port);
    const again = await banner(third);
    await stop(third);
    expect(again).not.toMatch(/svc_live_/);
    expect(again).toContain('its API key was printed on the first successful start');
    expect(again).toContain(`organization id  ${org}`);
    expect(again).toContain(`npm run -s admin -- mint-key --org ${org} --user ${user}`);
    expect(shown).toContain(`export API=http://127.0.0.1:${port} KEY=${key} ORG=${org} DATA_DIR=${dataDir}`);
  });
  it("busy file store port (PORT + 1, another copy's): the line says so and suggests a PORT whose pair is free", async () => {
    const port = (await freePortPair('127.0.0.1', randomPortBelowEphemeralRange()))!;
    const blocker = await listen(port + 1);
    const own = tempDir('pvs-banner-files-');
    try {
      const busy = await start(port, { FILES_PORT: undefined, DATA_DIR: own });
      expect(await busy.exited).not.toBe(0);
      const lines = busy.output().split('\n').filter((l) => l.trim());
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(new RegExp(`^Cannot start: 127\\.0\\.0\\.1:${port + 1} \\(the embedded file store: FILES_PORT, default PORT \\+ 1\\) is already in use\\. .*PORT=\\d+ npm start`));
      const suggested = Number(/PORT=(\d+) npm start/.exec(lines[0]!)![1]);
      expect(suggested).toBeGreaterThan(port + 1);
    } finally {
      await close(blocker);
      rmSync(own, { recursive: true, force: true });
    }
  });
});
