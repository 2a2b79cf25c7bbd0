import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync, rmSync } from 'node:fs';
import { createConnection, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// One `npm start` per data folder. The guard is a listening local socket that the operating system
// closes when its process ends, however it ends (kill -9 included), so a crashed instance never
// blocks the next start and a pid reused by another process means nothing. Whoever connects is
// told what is serving (the admin CLI finds the running instance this way): the lock and the record
// of the instance are one thing and cannot disagree.

/** What a running instance answers on its lock. */
export interface InstanceRecord {
  pid: number;
  state: 'starting' | 'serving';
  apiUrl?: string;
  dynamoEndpoint?: string;
  s3Endpoint?: string;
  /** The instance's non-secret settings (local/instance-settings.ts), for admin commands that run its jobs. */
  settings?: Record<string, string>;
  /** Where admin commands hand the instance the deliveries they raise (local/instance-control.ts). */
  control?: { url: string; token: string };
  /**
   * Held by the admin CLI working on the stopped folder, not by a service: its command (e.g.
   * `mint-key`). Such a holder never serves; it lets go when its command ends.
   */
  adminCommand?: string;
}

/** What holds the data folder, in words: a service starting or serving, or an admin command. */
function lockedMessage(dataDir: string, holder: InstanceRecord | null): string {
  if (holder?.adminCommand) return `The admin CLI (pid ${holder.pid || 'unknown'}, \`npm run admin -- ${holder.adminCommand}\`) is using ${dataDir}.`;
  const what = holder?.state === 'serving' && holder.apiUrl ? `is already serving ${holder.apiUrl}` : 'is already starting';
  return `Another instance (pid ${holder?.pid || 'unknown'}) ${what} from ${dataDir}.`;
}

export class InstanceLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: InstanceRecord | null,
  ) {
    super(lockedMessage(dataDir, holder));
    this.name = 'InstanceLockedError';
  }
}

/**
 * Where the lock of a data folder listens. Linux: an abstract socket (no file; gone with its
 * process) named by the folder's real path. Windows: a named pipe, likewise. Elsewhere: a socket
 * file `instance.sock` in the folder (or, when that path is too long for a socket, in the temp
 * folder under the same hash); a file left by a dead process is found by a refused connect and removed.
 */
export function instanceLockAddress(dataDir: string, platform: NodeJS.Platform = process.platform): string {
  const id = createHash('sha256').update(dataDir).digest('hex').slice(0, 32);
  if (platform === 'linux') return `\0phone-validation-instance-${id}`;
  if (platform === 'win32') return `\\\\?\\pipe\\phone-validation-instance-${id}`;
  const inFolder = join(dataDir, 'instance.sock');
  // sun_path is 104 bytes on macOS and the BSDs (108 on Linux), the terminating zero included.
  return Buffer.byteLength(inFolder) <= 100 ? inFolder : join(tmpdir(), `phone-validation-${id}.sock`);
}

const isFileSocket = (address: string) => !address.startsWith('\0') && !address.startsWith('\\\\');

/** The folder as the lock names it: its real path, so two spellings of one folder share one lock. */
function canonical(dataDir: string): string {
  mkdirSync(dataDir, { recursive: true });
  return realpathSync(dataDir);
}

export interface InstanceLock {
  /** From now on, whoever asks is told the instance serves (and where). */
  publish(record: Omit<InstanceRecord, 'pid' | 'state'>): void;
  release(): Promise<void>;
}

export interface LockOptions {
  /** Tests: the platform whose kind of lock to take (the socket-file kind works on Linux too). */
  platform?: NodeJS.Platform;
}

export interface AcquireOptions extends LockOptions {
  /** The admin CLI's command, when the admin CLI takes the lock to work on the stopped folder. */
  adminCommand?: string;
}

/** Takes the data folder's lock, or throws InstanceLockedError naming the instance that holds it. */
export async function acquireInstanceLock(dataDir: string, options: AcquireOptions = {}): Promise<InstanceLock> {
  const folder = canonical(dataDir);
  const address = instanceLockAddress(folder, options.platform);
  let record: InstanceRecord = { pid: process.pid, state: 'starting', ...(options.adminCommand ? { adminCommand: options.adminCommand } : {}) };
  const server = createServer((socket) => {
    socket.on('error', () => socket.destroy());
    socket.end(`${JSON.stringify(record)}\n`);
  });
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    const holder = await probeAddress(address);
    if (holder !== null || !isFileSocket(address)) throw new InstanceLockedError(dataDir, holder);
    // A socket file nobody listens on: left by an instance that died. Remove it and take the lock.
    rmSync(address, { force: true });
    try {
      await listen(server, address);
    } catch (again) {
      if ((again as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new InstanceLockedError(dataDir, await probeAddress(address));
      throw again;
    }
  }
  server.unref();
  let released = false;
  return {
    publish: (fields) => {
      record = { ...fields, pid: process.pid, state: 'serving' };
    },
    release: async () => {
      if (released) return;
      released = true;
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** The instance holding the data folder's lock, or null when none does. */
export async function probeInstance(dataDir: string, options: LockOptions = {}): Promise<InstanceRecord | null> {
  return probeAddress(instanceLockAddress(canonical(dataDir), options.platform));
}

/**
 * The instance holding the lock, waiting (up to `timeoutMs`) while it is still starting: null when
 * none holds it; a record in the 'starting' state when it did not finish starting in time, or at
 * once when the admin CLI holds it (it never serves).
 */
export async function waitForServingInstance(dataDir: string, timeoutMs = 60_000, options: LockOptions = {}): Promise<InstanceRecord | null> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const record = await probeInstance(dataDir, options);
    if (record === null || record.state === 'serving' || record.adminCommand || Date.now() >= deadline) return record;
    await new Promise((wake) => setTimeout(wake, 200));
  }
}

function listen(server: Server, address: string): Promise<void> {
  return new Promise((done, fail) => {
    const onError = (error: Error) => fail(error);
    server.once('error', onError);
    server.listen(address, () => {
      server.off('error', onError);
      done();
    });
  });
}

/** Connects and reads the holder's record; null when nothing listens there. */
function probeAddress(address: string): Promise<InstanceRecord | null> {
  return new Promise((done) => {
    const socket = createConnection(address);
    let text = '';
    let settled = false;
    const finish = (value: InstanceRecord | null) => {
      if (settled) return;
      settled = true;
      socket.destroy();
      done(value);
    };
    socket.setEncoding('utf8');
    socket.setTimeout(5_000, () => finish(parseRecord(text) ?? { pid: 0, state: 'starting' }));
    socket.on('data', (chunk: string) => (text += chunk));
    // Something listens but answered nothing readable: still held (by an instance we cannot read).
    socket.on('end', () => finish(parseRecord(text) ?? { pid: 0, state: 'starting' }));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // Refused (a dead instance's socket file) or absent: nobody holds the lock.
      if (error.code === 'ECONNREFUSED' || error.code === 'ENOENT') finish(null);
      else finish(parseRecord(text) ?? { pid: 0, state: 'starting' });
    });
  });
}

function parseRecord(text: string): InstanceRecord | null {
  try {
    const value = JSON.parse(text.trim()) as InstanceRecord;
    if (typeof value?.pid !== 'number' || (value.state !== 'starting' && value.state !== 'serving')) return null;
    return value;
  } catch {
    return null;
  }
}
