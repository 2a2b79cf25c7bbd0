import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { startLocalApi, type ApiLambda, type LocalApi } from '../../../local/api-gateway-server';
import { serverAnswer } from '../../../local/http-answers';
import type { Admit } from '../../../local/request-admission';
import type { RouteSpec } from '../../../lambdas/platform/http/route-spec';
import { rawBodyOf } from '../../../lambdas/platform/http/raw-body';
import { dribbleBody, firstAnswer, pumpBody, rawClient } from '../../support/raw-client';
import { waitFor } from '../../support/wait';

// Answers the local server gives before a body is read whole (too large, a refused key, too slow)
// reach clients that keep sending: Node's fetch (undici) and a bare socket, neither sending
// `Expect: 100-continue` (issue 32). The organization is named by the key here; the real check
// (lambdas/auth through local/request-admission.ts) is exercised in body-fairness.test.ts.
const route = { method: 'POST', path: '/echo', fn: 'platform', operationId: 'echo', summary: 'echo', tags: [], responses: {} } as unknown as RouteSpec;
const seen: APIGatewayProxyEventV2[] = [];
const echo: ApiLambda = async (event) => {
  seen.push(event);
  return { statusCode: 200, headers: { 'content-type': 'text/plain' }, body: `got ${rawBodyOf(event).length}` };
};
const functions = { platform: echo, credits: echo, uploads: echo, contacts: echo, webhooks: echo, spam: echo };
const admit: Admit = async (authorization) =>
  authorization === 'Bearer good' ? { tenant: 'org-a' } : { refusal: serverAnswer(401, 'Invalid or revoked API key', { 'WWW-Authenticate': 'Bearer' }) };
const MB = 1024 * 1024;

let api: LocalApi;
let port: number;
beforeAll(async () => {
  api = await startLocalApi({ routes: [route], functions, port: 0, host: '127.0.0.1', maxBodyBytes: 10 * MB, admit, minBodyRate: { bytesPerSecond: 1024, windowMs: 400 }, lingerMs: 1_000 });
  port = Number(new URL(api.url).port);
});
afterAll(() => api.close());

const detailOf = async (res: Response) => ((await res.json()) as { detail: string }).detail;

describe('answers given before the body reach Node fetch', () => {
  it('a 101 MB multipart upload reads 413 with the envelope', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(101 * MB)]), 'big.csv');
    const res = await fetch(`${api.url}/echo`, { method: 'POST', body: form, headers: { authorization: 'Bearer good' } });
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toBe('application/json');
    // A route that takes no file is not told about the uploads' staging path (POST /api/v1/uploads is: early-answers-openapi.test.ts).
    expect(await detailOf(res)).toMatch(/^Request body of \d+ bytes exceeds API Gateway's limit of 10485760 bytes$/);
  });

  it('a streamed body past the limit reads 413 with the envelope', async () => {
    const piece = new Uint8Array(MB);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 12) controller.enqueue(piece);
        else controller.close();
      },
    });
    const res = await fetch(`${api.url}/echo`, { method: 'POST', body, duplex: 'half', headers: { authorization: 'Bearer good' } } as RequestInit);
    expect(res.status).toBe(413);
    expect(await detailOf(res)).toMatch(/^Request body exceeds API Gateway's limit of 10485760 bytes$/);
  });

  it('a refused key reads its 401 without the body being read, and holds no budget', async () => {
    const before = seen.length;
    const res = await fetch(`${api.url}/echo`, { method: 'POST', body: new Uint8Array(9 * MB), headers: { authorization: 'Bearer wrong' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer');
    expect(await detailOf(res)).toBe('Invalid or revoked API key');
    expect(seen.length).toBe(before);
    expect(api.bodies.budgets.inUse()).toBe(0);
    // The connection was drained, not reset: the next request is served.
    const next = await fetch(`${api.url}/echo`, { method: 'POST', body: 'hello', headers: { authorization: 'Bearer good' } });
    expect(await next.text()).toBe('got 5');
  });
});

describe('answers given before the body reach a bare socket that keeps writing', () => {
  it('a declared 101 MB body: the 413 is read, the client writes it all without a broken pipe', async () => {
    const size = 101 * MB;
    const client = rawClient(port, `POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: ${size}\r\n\r\n`);
    await pumpBody(client, size);
    const answer = await waitFor('the 413', () => firstAnswer(client.received()), 60_000, 20);
    expect(answer.status).toBe(413);
    expect((answer.body as { detail: string }).detail).toMatch(/^Request body of 105906176 bytes exceeds API Gateway's limit of 10485760 bytes$/);
    expect(client.sent).toBe(size);
    expect(client.events.filter((e) => e.startsWith('error'))).toEqual([]);
    client.socket.destroy();
  });

  it('a refused key on a body over a slow link: 401 read first, then the connection is closed, lingering', async () => {
    const client = rawClient(port, `POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nContent-Length: ${10 * MB}\r\n\r\n`);
    dribbleBody(client, 50);
    await client.closed;
    const answer = firstAnswer(client.received());
    expect(answer?.status).toBe(401);
    expect(answer?.body).toEqual({ detail: 'Invalid or revoked API key' });
    // The answer came before anything else happened to the connection.
    expect(client.events[0]).toBe('data');
  });

  it('a body slower than the minimum rate is cut with 408 in the envelope, read before the connection goes', async () => {
    const client = rawClient(port, `POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nContent-Length: ${10 * MB}\r\n\r\n`);
    dribbleBody(client, 100);
    await waitFor('the budget held', () => (api.bodies.budgets.inUse('org-a') === 10 * MB ? true : null), 30_000, 10);
    await client.closed;
    const answer = firstAnswer(client.received());
    expect(answer?.status).toBe(408);
    expect((answer?.body as { detail: string }).detail).toMatch(/^The request body arrived slower than 1024 bytes per second \(over 0\.4 s\)/);
    expect(client.events[0]).toBe('data');
    expect(api.bodies.budgets.inUse()).toBe(0);
  });
});

describe('Expect: 100-continue', () => {
  it('a refused request is answered without 100 Continue, so its body is never sent', async () => {
    const client = rawClient(port, `POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer wrong\r\nExpect: 100-continue\r\nContent-Length: ${5 * MB}\r\n\r\n`);
    await client.closed;
    expect(client.received()).toMatch(/^HTTP\/1\.1 401 /);
    expect(client.received()).not.toContain('100 Continue');
  });

  it('an admitted request gets 100 Continue, then its answer', async () => {
    const client = rawClient(port, `POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer good\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n`);
    await waitFor('100 Continue', () => (client.received().startsWith('HTTP/1.1 100 Continue\r\n') ? true : null), 30_000, 10);
    client.socket.write('hello');
    const answer = await waitFor('the answer', () => (client.received().endsWith('got 5') ? client.received() : null), 30_000, 10);
    expect(answer).toMatch(/HTTP\/1\.1 200 OK/);
    client.socket.destroy();
  });
});
