import { createHash, randomBytes } from 'node:crypto';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { inProcessAgent } from '../../../local/in-process-agent';

// A server that never listens: whatever reaches it came through the agent's connections in memory.
let server: Server | null = null;
afterEach(() => {
  server?.closeAllConnections();
  server = null;
});

function send(agent: ReturnType<typeof inProcessAgent>, method: string, path: string, body?: Buffer): Promise<{ res: IncomingMessage; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ agent, host: '127.0.0.1', port: 9, method, path, headers: body ? { 'content-length': body.length } : {} }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ res, body: Buffer.concat(parts) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('inProcessAgent', () => {
  it('carries large bodies both ways intact, one request after another, without a socket', async () => {
    // The server's HTTP parser copies each piece of a body it reads into a Buffer of its own: a body
    // written whole arrives in pieces of at most 1 MiB, never as one copy of its whole size.
    let largest = 0;
    const download = randomBytes(9 * 1024 * 1024 + 17);
    server = createServer((req, res) => {
      if (req.method === 'GET') {
        // Written in pieces with backpressure, as a file store streams an object.
        res.writeHead(200, { 'content-length': download.length });
        let at = 0;
        const more = () => {
          while (at < download.length) {
            const piece = download.subarray(at, (at += 64 * 1024));
            if (!res.write(piece)) return res.once('drain', more);
          }
          res.end();
        };
        return more();
      }
      const hash = createHash('sha256');
      let size = 0;
      req.on('data', (d: Buffer) => {
        hash.update(d);
        size += d.length;
        largest = Math.max(largest, d.length);
      });
      req.on('end', () => res.end(JSON.stringify({ size, sha256: hash.digest('hex') })));
    });
    const agent = inProcessAgent(server);
    const upload = randomBytes(21 * 1024 * 1024 + 5);
    for (let i = 0; i < 3; i++) {
      const put = await send(agent, 'PUT', '/object', upload);
      expect(put.res.statusCode).toBe(200);
      expect(JSON.parse(put.body.toString())).toEqual({ size: upload.length, sha256: createHash('sha256').update(upload).digest('hex') });
      const got = await send(agent, 'GET', '/object');
      expect(got.body.equals(download)).toBe(true);
    }
    expect(server.listening).toBe(false);
    expect(largest).toBeGreaterThan(0);
    expect(largest).toBeLessThanOrEqual(1024 * 1024);
  });

  it('fails the request, never hangs, when the server drops the connection mid-body', async () => {
    server = createServer((req) => {
      req.once('data', () => req.socket.destroy());
    });
    const agent = inProcessAgent(server);
    await expect(send(agent, 'PUT', '/object', randomBytes(4 * 1024 * 1024))).rejects.toThrow(/socket hang up|ECONNRESET|aborted/);
  });

  it('ends the response early when the client goes away, and the server sees the connection close', async () => {
    let closed!: () => void;
    const serverSawClose = new Promise<void>((resolve) => (closed = resolve));
    server = createServer((req, res) => {
      res.writeHead(200);
      res.write(Buffer.alloc(64 * 1024));
      req.socket.on('close', () => closed());
    });
    const agent = inProcessAgent(server);
    await new Promise<void>((resolve, reject) => {
      const req = request({ agent, host: '127.0.0.1', port: 9, path: '/' }, (res) => {
        res.once('data', () => {
          req.destroy();
          resolve();
        });
      });
      req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
      req.end();
    });
    await serverSawClose;
  });
});
