import { createServer } from 'node:net';

// What a busy-port message suggests: a port that works as given. `npm start` needs two ports, the
// API's and, by default, the next one for the file store, so a suggestion of PORT + 1 fails again
// when the port is held by another copy of this service (its file store is on PORT + 1).

export function isFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** The first port from `from` up whose next port is free too; null when none of 50 pairs is. */
export async function freePortPair(host: string, from: number): Promise<number | null> {
  for (let port = from; port < from + 100 && port < 65535; port += 2) {
    if ((await isFree(host, port)) && (await isFree(host, port + 1))) return port;
  }
  return null;
}

/**
 * A random even port from 20000 to 31998, where to start looking for a pair that is bound a while
 * after it was found free (a check's service, the README's receiver). It lies below the ports the
 * kernel hands out to outgoing connections (Linux 32768-60999, macOS 49152 up): a port from that
 * range, free when checked, was taken by a test's keep-alive connection before the receiver bound it.
 */
export function randomPortBelowEphemeralRange(): number {
  return 20000 + Math.floor(Math.random() * 6000) * 2;
}

/** A port `npm start` listens on, and the setting that chooses it. */
export interface BoundPort {
  port: number;
  /** What listens there, e.g. "the API". */
  what: string;
  /** The setting that chooses the port, e.g. "PORT", "FILES_PORT, default PORT + 1". */
  setting: string;
}

/** Those of `ports` something else listens on now (a port of 0 is any free port: never busy). */
export async function busyPorts(host: string, ports: readonly BoundPort[]): Promise<BoundPort[]> {
  const busy: BoundPort[] = [];
  for (const bound of ports) if (bound.port !== 0 && !(await isFree(host, bound.port))) busy.push(bound);
  return busy;
}

/**
 * The one line a start refused for busy ports prints: every busy port with what listens there and
 * its setting, and a way out (`instead`, e.g. "start on free ports (PORT=3004 npm start)").
 */
export function portsInUseLine(host: string, busy: readonly BoundPort[], instead: string): string {
  const named = busy.map((b) => `${host}:${b.port} (${b.what}: ${b.setting})`);
  const list = named.length > 1 ? `${named.slice(0, -1).join(', ')} and ${named.at(-1)}` : named[0];
  return `Cannot start: ${list} ${busy.length > 1 ? 'are' : 'is'} already in use. Stop what is using ${busy.length > 1 ? 'them' : 'it'}, or ${instead}.`;
}
