import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { startLocalApi, type ApiLambda, type LocalApi } from '../../../local/api-gateway-server';
import type { RouteSpec } from '../../../lambdas/platform/http/route-spec';
import { rawBodyOf } from '../../../lambdas/platform/http/raw-body';
import { waitFor } from '../../support/wait';

// The local API server on its own, with one echo route, so the transport can be tested without
// the service behind it.
const route: RouteSpec = { method: 'POST', path: '/echo', fn: 'platform', operationId: 'echo', summary: 'echo', tags: [], auth: false, responses: {} } as unknown as RouteSpec;
const seen: APIGatewayProxyEventV2[] = [];
const echo: ApiLambda = async (event) => {
  seen.push(event);
  const bytes = rawBodyOf(event);
  return { statusCode: 200, headers: { 'content-type': 'application/octet-stream' }, body: bytes.toString('base64'), isBase64Encoded: true };
};
const functions = { platform: echo, credits: echo, uploads: echo, contacts: echo, webhooks: echo, spam: echo };

let api: LocalApi;
beforeAll(async () => {
  api = await startLocalApi({ routes: [route], functions, port: 0, host: '127.0.0.1', maxBodyBytes: 1024 * 1024, requestTimeoutMs: 400, headersTimeoutMs: 400 });
});
afterAll(() => api.close());

/** Opens a raw connection, writes `data`, never writes more; resolves with what the server sent once it closes. */
function dribble(data: string): Promise<string> {
  const port = new URL(api.url).port;
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(data));
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', reject);
    socket.on('close', () => resolve(received));
  });
}

describe('local API server timeouts', () => {
  it('closes a connection whose body never finishes', async () => {
    const answer = await dribble('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nonly part of the body');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('closes a connection whose headers never finish', async () => {
    const answer = await dribble('POST /echo HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(answer.split('\r\n\r\n')[1]).toBe('{"detail":"The request was not received in time"}');
  });

  it("by default Node's whole-request timeout is off (its 408 resets a client still writing); headers keep theirs", async () => {
    // A slow body is held to the minimum body rate instead (test/integration/platform/body-fairness.test.ts).
    const plain = await startLocalApi({ routes: [route], functions, port: 0, host: '127.0.0.1', maxBodyBytes: 1024 * 1024 });
    try {
      expect(plain.server.requestTimeout).toBe(0);
      expect(plain.server.headersTimeout).toBe(60_000);
    } finally {
      await plain.close();
    }
  });

  it('still serves complete requests', async () => {
    const res = await fetch(`${api.url}/echo`, { method: 'POST', body: 'hello', headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello');
  });
});

describe('local API server: requests refused before any handler', () => {
  it('answers headers over the limit and malformed HTTP with the error envelope, and keeps serving', async () => {
    const long = await fetch(`${api.url}/echo?cursor=${'x'.repeat(60_000)}`, { method: 'POST', body: 'x', headers: { 'content-type': 'text/plain' } });
    expect(long.status).toBe(431);
    expect(long.headers.get('content-type')).toBe('application/json');
    expect(((await long.json()) as { detail: string }).detail).toMatch(/request line and headers are too large/);

    const garbage = await dribble('NOT HTTP AT ALL\r\n\r\n');
    expect(garbage).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(garbage.split('\r\n\r\n')[1]).toBe('{"detail":"The request is not valid HTTP/1.1"}');

    const res = await fetch(`${api.url}/echo`, { method: 'POST', body: 'still here', headers: { 'content-type': 'text/plain' } });
    expect(await res.text()).toBe('still here');
  });
});

describe('local API server bodies', () => {
  it('hands the handler the exact bytes, with and without Content-Length', async () => {
    const binary = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256));
    const sized = await fetch(`${api.url}/echo`, { method: 'POST', body: binary, headers: { 'content-type': 'application/octet-stream' } });
    expect(Buffer.from(await sized.arrayBuffer()).equals(binary)).toBe(true);

    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(binary.subarray(0, 1000));
        controller.enqueue(binary.subarray(1000));
        controller.close();
      },
    });
    const chunked = await fetch(`${api.url}/echo`, { method: 'POST', body: stream, duplex: 'half', headers: { 'content-type': 'application/octet-stream' } } as RequestInit);
    expect(Buffer.from(await chunked.arrayBuffer()).equals(binary)).toBe(true);
  });

  it('reads large bodies into a buffer kept between requests: bodies at the same time and one after another each get their own bytes, and a handler that keeps them past its answer reads zeros', async () => {
    const held: Buffer[] = [];
    const release: (() => void)[] = [];
    const holding: ApiLambda = async (event) => {
      const bytes = rawBodyOf(event);
      held.push(bytes);
      // The first two answer together: both bodies are read before either handler returns.
      if (held.length <= 2) await new Promise<void>((r) => (release.push(r), release.length === 2 && release.forEach((f) => f())));
      return { statusCode: 200, headers: { 'content-type': 'application/octet-stream' }, body: bytes.toString('base64'), isBase64Encoded: true };
    };
    const large = await startLocalApi({ routes: [route], functions: { ...functions, platform: holding }, port: 0, host: '127.0.0.1', maxBodyBytes: 8 * 1024 * 1024, anonymousInFlightBodyBytes: 16 * 1024 * 1024 });
    try {
      const body = (seed: number) => Buffer.from(Array.from({ length: 3 * 1024 * 1024 }, (_, i) => (i * 7 + seed) % 251));
      const post = async (bytes: Buffer) => Buffer.from(await (await fetch(`${large.url}/echo`, { method: 'POST', body: bytes, headers: { 'content-type': 'application/octet-stream' } })).arrayBuffer());
      const [a, b] = [body(1), body(2)];
      const [echoA, echoB] = await Promise.all([post(a), post(b)]);
      expect(echoA.equals(a)).toBe(true);
      expect(echoB.equals(b)).toBe(true);
      const c = body(3);
      expect((await post(c)).equals(c)).toBe(true);
      // The third body was read into a buffer an earlier one gave back; what those handlers kept is zeros.
      expect(held[2]!.buffer === held[0]!.buffer || held[2]!.buffer === held[1]!.buffer).toBe(true);
      const earlier = held[2]!.buffer === held[0]!.buffer ? held[1]! : held[0]!;
      expect(earlier.every((x) => x === 0)).toBe(true);
    } finally {
      await large.close();
    }
  });

  it('the event still carries the body as API Gateway would send it (base64 for binary, text otherwise)', async () => {
    seen.length = 0;
    await fetch(`${api.url}/echo`, { method: 'POST', body: Buffer.from([0, 1, 2, 255]), headers: { 'content-type': 'application/octet-stream' } });
    await fetch(`${api.url}/echo`, { method: 'POST', body: '{"a":"é"}', headers: { 'content-type': 'application/json' } });
    await fetch(`${api.url}/echo`, { method: 'POST' });
    expect(seen.map((e) => [e.body, e.isBase64Encoded])).toEqual([
      ['AAEC/w==', true],
      ['{"a":"é"}', false],
      [undefined, false],
    ]);
    expect(JSON.parse(JSON.stringify(seen[1])).body).toBe('{"a":"é"}');
    // Handlers get the server's own buffer, not a fresh decoding of a base64 copy.
    expect(rawBodyOf(seen[0]!)).toBe(rawBodyOf(seen[0]!));
  });

  it('refuses a body over the limit with 413, declared or streamed', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1);
    expect((await fetch(`${api.url}/echo`, { method: 'POST', body: big })).status).toBe(413);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(big);
        controller.close();
      },
    });
    const res = await fetch(`${api.url}/echo`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    // The server stops keeping the body, discards the rest and answers 413: never a reset connection.
    expect(res.status).toBe(413);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/exceeds API Gateway's limit of 1048576 bytes/);
  });

  it('a chunked body over the limit, written over a raw socket in many chunks, gets the 413 envelope, and the same connection then serves the next request', async () => {
    const port = Number(new URL(api.url).port);
    const socket = connect(port, '127.0.0.1');
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', () => undefined);
    socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\nTransfer-Encoding: chunked\r\n\r\n');
    // 1.5 MB in 16 KiB chunks, past the 1 MB limit, then the terminating chunk.
    const chunk = Buffer.alloc(16 * 1024, 0x61);
    await new Promise<void>((resolve) => {
      let sent = 0;
      const writeMore = () => {
        while (sent < 96) {
          sent++;
          const ok = socket.write(Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]));
          if (!ok) return void socket.once('drain', writeMore);
        }
        socket.write('0\r\n\r\n', () => resolve());
      };
      writeMore();
    });
    const first = await waitFor('the 413', () => (/\r\n\r\n\{.*\}$/s.test(received) ? received : null), 30_000, 10);
    expect(first).toMatch(/^HTTP\/1\.1 413 /);
    const body = JSON.parse(first.slice(first.indexOf('\r\n\r\n') + 4)) as { detail: string };
    expect(body.detail).toMatch(/^Request body exceeds API Gateway's limit of 1048576 bytes$/);
    // The rest of the body was read and dropped, so the connection is clean: the next request on it is served.
    received = '';
    socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 10\r\n\r\nstill here');
    const second = await waitFor('the next answer', () => (received.endsWith('still here') ? received : null), 30_000, 10);
    expect(second).toMatch(/^HTTP\/1\.1 200 /);
    socket.destroy();
  });
});

describe('local API server: a streamed body past the limit that never ends', () => {
  it('gets its 413 at once; the rest is read only up to the bound, then the connection is closed', async () => {
    const bounded = await startLocalApi({ routes: [route], functions, port: 0, host: '127.0.0.1', maxBodyBytes: 1024, overLimitDiscard: { bytes: 64 * 1024, ms: 60_000 }, lingerMs: 200 });
    try {
      const port = Number(new URL(bounded.url).port);
      let written = 0;
      const answer = await new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let received = '';
        socket.on('data', (d) => (received += d.toString()));
        socket.on('error', () => undefined); // the server cuts it while it still sends
        socket.on('close', () => resolve(received));
        socket.write('POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = Buffer.concat([Buffer.from('1000\r\n'), Buffer.alloc(0x1000, 0x62), Buffer.from('\r\n')]);
        // Sends until the connection goes, whatever it is told (never the terminating chunk):
        // without the bound this never ends.
        const pump = () => {
          while (!socket.destroyed && !socket.writableEnded) {
            written += chunk.length;
            if (!socket.write(chunk)) return void socket.once('drain', pump);
          }
        };
        pump();
      });
      expect(answer).toMatch(/^HTTP\/1\.1 413 /);
      expect(answer).toContain("Request body exceeds API Gateway's limit of 1024 bytes");
      expect(written).toBeGreaterThan(64 * 1024);
    } finally {
      await bounded.close();
    }
  });
});

describe('local API server memory bound', () => {
  it("holds at most maxInFlightBodyBytes of one organization's bodies: its request over the budget waits until its earlier ones are answered, another organization's does not", async () => {
    const started: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const slow: ApiLambda = async (event) => {
      const body = rawBodyOf(event).toString();
      started.push(body.slice(0, 1));
      if (body.startsWith('a')) await released;
      return { statusCode: 200, body: body.slice(0, 1) };
    };
    const fns = { platform: slow, credits: slow, uploads: slow, contacts: slow, webhooks: slow, spam: slow };
    // An authenticated route; the organization is named by the key (the real check: request-admission.ts).
    const keyed = { ...route, auth: true } as RouteSpec;
    const admit = async (authorization: string | undefined) => ({ tenant: authorization?.replace(/^Bearer /, '') ?? null });
    const bounded = await startLocalApi({ routes: [keyed], functions: fns, port: 0, host: '127.0.0.1', maxBodyBytes: 1000, maxInFlightBodyBytes: 100, admit });
    const post = (org: string, body: string) => fetch(`${bounded.url}/echo`, { method: 'POST', body, headers: { 'content-type': 'text/plain', authorization: `Bearer ${org}` } });
    try {
      const first = post('org-a', 'a'.repeat(80));
      await waitFor('the first request started', () => (started.length >= 1 ? true : null), 30_000, 10);
      const second = post('org-a', 'b'.repeat(80));
      // Admission is in arrival order: a small request does not overtake a waiting large one.
      const third = post('org-a', 'c'.repeat(10));
      await waitFor('both wait for the budget', () => (bounded.bodies.budgets.queued('org-a') === 2 && bounded.bodies.budgets.inUse('org-a') === 80 ? true : null), 30_000, 10);
      // Another organization's request is read and answered while org-a's wait.
      expect(await (await post('org-b', 'd'.repeat(80))).text()).toBe('d');
      // Neither of org-a's has been read while the first holds 80 of its 100 bytes.
      expect(started).toEqual(['a', 'd']);
      release();
      expect(await (await first).text()).toBe('a');
      expect(await (await second).text()).toBe('b');
      expect(await (await third).text()).toBe('c');
      expect(started).toEqual(['a', 'd', 'b', 'c']);
      expect(bounded.bodies.budgets.inUse()).toBe(0);
    } finally {
      await bounded.close();
    }
  });
});
