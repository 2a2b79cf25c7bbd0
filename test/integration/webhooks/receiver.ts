import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export type ReceiverMode = { kind: 'status'; status: number } | { kind: 'hang' } | { kind: 'close' };

export interface ReceivedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  url: string;
  port: number;
  requests: ReceivedRequest[];
  mode: ReceiverMode;
  /** Resolves once `count` requests have arrived (no timing assumptions: the test timeout bounds it). */
  waitFor(count: number): Promise<void>;
  close(): Promise<void>;
}

/** A webhook receiver on loopback that records every request and answers as `mode` says. */
export async function startReceiver(mode: ReceiverMode = { kind: 'status', status: 200 }): Promise<Receiver> {
  const waiters: { count: number; resolve: () => void }[] = [];
  const receiver = { requests: [] as ReceivedRequest[], mode } as Receiver;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      receiver.requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      for (const w of waiters.filter((w) => receiver.requests.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
      const current = receiver.mode;
      if (current.kind === 'close') req.socket.destroy();
      else if (current.kind === 'status') res.writeHead(current.status, { 'content-type': 'text/plain' }).end('ok');
      // hang: never answer; the sender's timeout ends the attempt
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  receiver.port = port;
  receiver.url = `http://127.0.0.1:${port}/hook`;
  receiver.waitFor = (count) =>
    receiver.requests.length >= count ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ count, resolve }));
  receiver.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return receiver;
}

export const header = (request: ReceivedRequest, name: string): string => {
  const value = request.headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(',') : (value ?? '');
};
