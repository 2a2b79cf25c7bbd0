import { randomUUID } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import type { ErrorDetail } from '../lambdas/platform/errors';

/** Writes a handler's (or the server's own) result as the HTTP answer. */
export function send(res: ServerResponse, result: APIGatewayProxyStructuredResultV2): void {
  const headers: Record<string, string | number | boolean> = { ...(result.headers ?? {}) };
  const body = result.body ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  res.writeHead(result.statusCode ?? 200, { ...headers, 'content-length': body.length });
  res.end(body);
}

/**
 * An answer the local server gives itself, before any handler runs (a body too large or too slow,
 * a key refused before the body is read): the spec's error envelope, with the request id header
 * every answer of the API carries.
 */
export function serverAnswer(status: number, detail: ErrorDetail, headers: Record<string, string> = {}): APIGatewayProxyStructuredResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json', 'x-request-id': randomUUID(), ...headers },
    body: JSON.stringify({ detail }),
  };
}

/**
 * Closes a connection whose client may still be sending, so that it reads the answer already
 * written instead of a reset (RFC 9112, 9.6): the server's side is shut (FIN after the answer),
 * what the client still sends is read and dropped, and the socket is destroyed when the client
 * closes its side or after `lingerMs`. Closing at once would make the kernel answer the client's
 * next bytes with a reset, and a client still writing sees EPIPE/ECONNRESET, not the status.
 */
export function lingeringClose(socket: Duplex, lingerMs: number): void {
  if (socket.destroyed) return;
  const timer = setTimeout(() => socket.destroy(), lingerMs);
  socket.once('close', () => clearTimeout(timer));
  socket.once('end', () => socket.destroy());
  socket.end();
}
