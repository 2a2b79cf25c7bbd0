import { createServer } from 'node:net';

// What a busy-port message suggests: a port that works as given. `npm start` needs two ports, the
// API's and, by default, the next one for the file store, so a suggestion of PORT + 1 fails again
// when the port is held by another copy of this service (its file store is on PORT + 1).

function isFree(host: string, port: number): Promise<boolean> {
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
