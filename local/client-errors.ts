import type { Server } from 'node:http';
import type { Duplex } from 'node:stream';

// Requests Node refuses before any handler sees them (headers over its limit, a request line or
// headers that are not HTTP/1.1, a client too slow to send its request). Node's own answers have
// empty bodies; these carry the spec's error envelope like every other answer of the API.
const ANSWERS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request line and headers are too large; send long values (a cursor, a filter) in a shorter form'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request was not received in time'],
};
const MALFORMED: [number, string, string] = [400, 'Bad Request', 'The request is not valid HTTP/1.1'];

export function answerClientErrors(server: Server): void {
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex & { bytesWritten?: number }) => {
    const code = error.code ?? '';
    const answer = ANSWERS[code] ?? (code.startsWith('HPE_') ? MALFORMED : null);
    // Nothing can be said on a connection already answering, or one the client reset.
    if (!answer || !socket.writable || (socket.bytesWritten ?? 0) > 0) {
      socket.destroy();
      return;
    }
    const [status, reason, detail] = answer;
    const body = JSON.stringify({ detail });
    socket.end(`HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    // A client that never reads must not hold the socket open.
    setTimeout(() => socket.destroy(), 1_000).unref();
  });
}
