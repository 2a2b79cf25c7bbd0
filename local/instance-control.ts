import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DeliveryQueue } from '../lambdas/webhooks/delivery-queue-port';
import type { LocalWorker } from './local-worker';

// An admin command that raises events (`spam-run`'s spam.detected) writes their delivery records
// and hands each delivery to the running instance here, instead of attempting it from the CLI's
// own process: the CLI exits as soon as its answer is printed, so a first attempt that failed there
// would wait for the instance's sweeper (minutes) and its retry timers would die with the CLI. The
// instance attempts it now, with its settings, and owns every retry.
//
// Loopback only, one route, a token the instance publishes on its lock (local/instance-lock.ts).
// What a caller can do with it is harmless by construction: ask the instance to attempt a delivery
// that its records already hold, when they say it is due.

export interface InstanceControl extends LocalWorker {
  url: string;
  token: string;
}

const MAX_BODY_BYTES = 1024;

/** Starts the control endpoint on loopback; each enqueue goes to `queue` (the instance's own). */
export async function startInstanceControl(queue: DeliveryQueue): Promise<InstanceControl> {
  const token = randomBytes(24).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = createServer((request, response) => {
    const answer = (status: number, body: Record<string, unknown>) => {
      response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return answer(401, { error: 'unauthorized' });
    if (request.method !== 'POST' || request.url !== '/deliveries') return answer(404, { error: 'not_found' });
    readSmallBody(request)
      .then(async (text) => {
        if (text === null) return answer(413, { error: `body over ${MAX_BODY_BYTES} bytes` });
        const parsed = parseEnqueue(text);
        if (!parsed) return answer(400, { error: 'expected {"delivery_id": string, "due_at_ms": number}' });
        await queue.enqueue(parsed.deliveryId, parsed.dueAtMs);
        answer(202, { accepted: true });
      })
      .catch(() => answer(400, { error: 'unreadable body' }));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  server.unref();
  const { port } = server.address() as AddressInfo;
  return {
    name: 'instance-control',
    url: `http://127.0.0.1:${port}`,
    token,
    stop: () => new Promise<void>((done) => server.close(() => done())),
  };
}

/**
 * The delivery queue of an admin command run beside a serving instance: each delivery is handed to
 * the instance. A hand-over that fails is not an error of the command: the record is written, and
 * the instance's sweeper attempts every due delivery it finds.
 */
export function instanceDeliveryQueue(control: { url: string; token: string }): DeliveryQueue {
  return {
    async enqueue(deliveryId, dueAtMs) {
      await fetch(`${control.url}/deliveries`, {
        method: 'POST',
        headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ delivery_id: deliveryId, due_at_ms: dueAtMs }),
      })
        .then((response) => response.body?.cancel())
        .catch(() => undefined);
    },
  };
}

export function parseEnqueue(text: string): { deliveryId: string; dueAtMs: number } | null {
  try {
    const value = JSON.parse(text) as { delivery_id?: unknown; due_at_ms?: unknown };
    if (typeof value.delivery_id !== 'string' || value.delivery_id === '' || value.delivery_id.length > 200) return null;
    if (typeof value.due_at_ms !== 'number' || !Number.isFinite(value.due_at_ms)) return null;
    return { deliveryId: value.delivery_id, dueAtMs: value.due_at_ms };
  } catch {
    return null;
  }
}

/** The body, or null when it is longer than the route takes (the rest is read and dropped, so the client reads the answer). */
function readSmallBody(request: IncomingMessage): Promise<string | null> {
  return new Promise((done, fail) => {
    let text = '';
    let tooLarge = false;
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      if (tooLarge) return;
      text += chunk;
      if (text.length > MAX_BODY_BYTES) tooLarge = true;
    });
    request.on('end', () => done(tooLarge ? null : text));
    request.on('error', fail);
  });
}
