import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { busyPorts, portsInUseLine, type BoundPort } from '../../../local/free-port-pair';

// A start refused for busy ports names every one of the ports it listens on that is busy, each with
// the setting that chooses it: fixing one and starting again must not meet the next.

const api: BoundPort = { port: 3000, what: 'the API', setting: 'PORT' };
const files: BoundPort = { port: 3001, what: 'the embedded file store', setting: 'FILES_PORT, default PORT + 1' };
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

const listening = (): Promise<number> =>
  new Promise((done) => {
    const server = createServer();
    servers.push(server);
    server.listen(0, '127.0.0.1', () => done((server.address() as { port: number }).port));
  });

describe('busy ports', () => {
  it('one line naming each busy port with what listens there and its setting', () => {
    expect(portsInUseLine('127.0.0.1', [api], 'start on free ports (PORT=3004 npm start)')).toBe(
      'Cannot start: 127.0.0.1:3000 (the API: PORT) is already in use. Stop what is using it, or start on free ports (PORT=3004 npm start).',
    );
    expect(portsInUseLine('127.0.0.1', [api, files], 'start on free ports (PORT=3004 npm start)')).toBe(
      'Cannot start: 127.0.0.1:3000 (the API: PORT) and 127.0.0.1:3001 (the embedded file store: FILES_PORT, default PORT + 1) are already in use. Stop what is using them, or start on free ports (PORT=3004 npm start).',
    );
  });

  it('are those something listens on; port 0 (any free port) never is', async () => {
    const taken = await listening();
    const other = await listening();
    const bound = [
      { ...api, port: taken },
      { ...files, port: other },
      { port: 0, what: 'x', setting: 'X' },
    ];
    expect(await busyPorts('127.0.0.1', bound)).toEqual(bound.slice(0, 2));
    await new Promise((done) => servers.pop()!.close(done));
    expect(await busyPorts('127.0.0.1', bound)).toEqual([bound[0]]);
  });
});
