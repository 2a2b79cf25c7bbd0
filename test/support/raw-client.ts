import { connect, type Socket } from 'node:net';

/**
 * A client on a bare socket, as the simplest HTTP libraries are: it writes its request without
 * `Expect: 100-continue` and keeps writing whatever it is answered. It records what it reads and
 * in what order the connection's events came, so a test can tell "read the answer, then the
 * connection closed" from "got a reset before the answer".
 */
export interface RawClient {
  socket: Socket;
  /** Everything read so far. */
  received(): string;
  /** The events, in order: 'data', 'end' (the server's FIN), 'error:<code>', 'close'. */
  events: string[];
  /** Resolves once the socket is closed. */
  closed: Promise<void>;
  /** Bytes of body written so far (by pumpBody and dribbleBody). */
  sent: number;
}

export function rawClient(port: number, head: string): RawClient {
  const socket = connect(port, '127.0.0.1');
  const events: string[] = [];
  let received = '';
  socket.on('data', (d) => {
    received += d.toString();
    if (events.at(-1) !== 'data') events.push('data');
  });
  socket.on('end', () => events.push('end'));
  socket.on('error', (e: NodeJS.ErrnoException) => events.push(`error:${e.code ?? e.message}`));
  const closed = new Promise<void>((resolve) =>
    socket.on('close', () => {
      events.push('close');
      resolve();
    }),
  );
  socket.write(head);
  return { socket, received: () => received, events, closed, sent: 0 };
}

/** Writes `total` bytes of body as fast as the connection takes them, stopping only if it goes. */
export function pumpBody(client: RawClient, total: number, chunkBytes = 64 * 1024): Promise<void> {
  const chunk = Buffer.alloc(chunkBytes, 0x61);
  return new Promise((resolve) => {
    let left = total;
    const more = () => {
      while (left > 0) {
        if (client.socket.destroyed) return resolve();
        const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
        left -= piece.length;
        client.sent += piece.length;
        if (!client.socket.write(piece)) return void client.socket.once('drain', more);
      }
      resolve();
    };
    client.socket.once('close', () => resolve());
    more();
  });
}

/** Writes one byte every `everyMs` until the connection goes (or `stop` is called). */
export function dribbleBody(client: RawClient, everyMs: number): { stop(): void } {
  const timer = setInterval(() => {
    if (client.socket.destroyed || client.socket.writableEnded) return clearInterval(timer);
    client.sent += 1;
    client.socket.write('x');
  }, everyMs);
  client.socket.once('close', () => clearInterval(timer));
  return { stop: () => clearInterval(timer) };
}

/** The status and JSON body of the first answer in `text`, once it is whole (Content-Length, in bytes). */
export function firstAnswer(text: string): { status: number; headers: string; body: unknown } | null {
  const end = text.indexOf('\r\n\r\n');
  if (end < 0) return null;
  const headers = text.slice(0, end);
  const length = Number(/\r\ncontent-length: (\d+)/i.exec(headers)?.[1] ?? 0);
  const rest = Buffer.from(text.slice(end + 4));
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]);
  // The 100 Continue interim answer has no body: the final answer follows it.
  if (status === 100) return firstAnswer(text.slice(end + 4));
  if (rest.length < length) return null;
  const raw = rest.subarray(0, length).toString();
  return { status, headers, body: raw ? (JSON.parse(raw) as unknown) : null };
}
