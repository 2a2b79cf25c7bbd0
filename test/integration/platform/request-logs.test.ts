import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startLocalApi, type ApiLambda, type LocalApi } from '../../../local/api-gateway-server';
import { apiHandler } from '../../../lambdas/api/api-handler';
import { operation } from '../../../lambdas/api/operation';
import { ok } from '../../../lambdas/platform/http/response';
import type { RouteSpec } from '../../../lambdas/platform/http/route-spec';
import { logger } from '../../../lambdas/platform/logger';

// Two routes on the real API stack (middy, error envelope, logger) behind the real local server.
// A request to /slow appends a key, waits until the test lets it go, logs and fails with a 500;
// /fast runs to its end in between. With one shared set of logger keys the slow request's lines
// would carry the fast one's request id and route.
const route = (path: string): RouteSpec => ({ method: 'POST', path, fn: 'platform', operationId: path, summary: path, tags: [], auth: false, responses: {} }) as unknown as RouteSpec;
const slowRoute = route('/slow');
const fastRoute = route('/fast');

let release!: () => void;
let slowStarted!: () => void;
const slowRunning = new Promise<void>((resolve) => (slowStarted = resolve));
const released = new Promise<void>((resolve) => (release = resolve));

const handler = apiHandler([
  operation(slowRoute, async () => {
    logger.appendKeys({ marker: 'slow' });
    slowStarted();
    await released;
    logger.warn('slow: about to fail');
    throw new Error('slow failed');
  }),
  operation(fastRoute, async () => {
    logger.appendKeys({ marker: 'fast' });
    logger.warn('fast: working');
    return ok({ fine: true });
  }),
]) as ApiLambda;

let api: LocalApi;
const lines: Record<string, unknown>[] = [];

beforeAll(async () => {
  logger.setLogLevel('INFO');
  const functions = { platform: handler, credits: handler, uploads: handler, contacts: handler, webhooks: handler, spam: handler };
  api = await startLocalApi({ routes: [slowRoute, fastRoute], functions, port: 0, host: '127.0.0.1', maxBodyBytes: 1024 });
  // The logger writes INFO to stdout, WARN and ERROR to stderr.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream);
    vi.spyOn(stream, 'write').mockImplementation(((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n')) {
        if (!line.startsWith('{')) continue;
        try {
          lines.push(JSON.parse(line) as Record<string, unknown>);
        } catch {
          // not a log line
        }
      }
      return (write as (c: string | Uint8Array, ...r: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof stream.write);
  }
});
afterEach(() => vi.restoreAllMocks());
afterAll(async () => {
  logger.setLogLevel((process.env.POWERTOOLS_LOG_LEVEL ?? 'INFO') as 'INFO');
  await api.close();
});

describe('a log context per request', () => {
  it('every line of two overlapping requests carries its own request id, route and keys; the 500 body names the id of its error line', async () => {
    const slow = fetch(`${api.url}/slow`, { method: 'POST' });
    await slowRunning;
    const fast = await fetch(`${api.url}/fast`, { method: 'POST' });
    expect(fast.status).toBe(200);
    const fastId = fast.headers.get('x-request-id');
    release();
    const failed = await slow;
    expect(failed.status).toBe(500);
    const slowId = /request id ([0-9a-f-]{36})/.exec(((await failed.json()) as { detail: string }).detail)?.[1];
    expect(slowId).toBeTruthy();
    expect(slowId).not.toBe(fastId);

    const ofRequest = (id: string | null | undefined) => lines.filter((l) => l.request_id === id);
    const slowLines = ofRequest(slowId);
    const fastLines = ofRequest(fastId);
    expect(slowLines.map((l) => l.message)).toEqual(['slow: about to fail', 'unhandled error']);
    expect(fastLines.map((l) => l.message)).toEqual(['fast: working', 'request']);
    for (const l of slowLines) expect(l).toMatchObject({ route: 'POST /slow', marker: 'slow' });
    for (const l of fastLines) expect(l).toMatchObject({ route: 'POST /fast', marker: 'fast' });
    const errorLine = slowLines.find((l) => l.level === 'ERROR')!;
    expect(errorLine.message).toBe('unhandled error');
    // No line of these requests lacks its id or carries the other's marker.
    const ours = lines.filter((l) => l.marker === 'slow' || l.marker === 'fast');
    expect(ours).toHaveLength(slowLines.length + fastLines.length);
  });
});
