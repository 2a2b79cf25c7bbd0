import { Agent, type Server } from 'node:http';
import { Duplex } from 'node:stream';

/**
 * The largest piece a write is handed to the peer in. Node's HTTP parser copies each piece of a
 * body it reads into a Buffer of its own, so a 22 MB object written whole arrived as one 22 MB copy:
 * fresh memory from glibc each time (about 5,400 page faults here), freed only by a full
 * collection, and counted toward starting one. Smaller pieces than this cost no less CPU time and
 * raised `npm start`'s peak through an upload by 25-30 MB (64 and 256 KiB; docs/performance.md,
 * "Create's CPU, eleventh step").
 */
const SLICE_BYTES = 1024 * 1024;

/**
 * One end of a connection held in memory: what it writes, its peer reads, as views of the same
 * Buffers in pieces of at most SLICE_BYTES (no copy, no socket, no kernel), with the peer's
 * backpressure. Ending one end ends what the other reads; destroying one destroys the other, as a
 * reset connection would.
 */
class MemoryEnd extends Duplex {
  peer!: MemoryEnd;
  /** The write waiting for the peer to read again. */
  private blocked: (() => void) | null = null;
  readonly remoteAddress = '127.0.0.1';

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    let flowing = true;
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) flowing = this.peer.push(chunk.subarray(at, at + SLICE_BYTES));
    if (flowing) callback();
    else this.peer.blocked = () => callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.peer.push(null);
    callback();
  }

  override _read(): void {
    // The peer's write that filled this end's buffer goes on.
    const resume = this.blocked;
    this.blocked = null;
    resume?.();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    if (!this.peer.destroyed) this.peer.destroy();
    callback(error);
  }

  // What Node's HTTP client and server call on a socket; a connection in memory has no timer or
  // TCP option to set (the server's own request timeouts still apply: they watch the parser).
  setTimeout(): this {
    return this;
  }
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }
}

/**
 * An HTTP agent whose every connection is handed, in memory, to `server` in this process (Node's
 * HTTP server takes any Duplex as a connection, its 'connection' event): the requests are still
 * parsed, checked and answered by that server exactly as over loopback, without the socket's
 * copies in and out of the kernel. The local runtime's own S3 client reaches the embedded store this
 * way (docs/architecture.md); links and browsers still reach it over loopback.
 */
export function inProcessAgent(server: Server): Agent {
  const agent = new Agent({ keepAlive: false });
  (agent as unknown as { createConnection: () => Duplex }).createConnection = () => {
    const client = new MemoryEnd();
    const served = new MemoryEnd();
    client.peer = served;
    served.peer = client;
    server.emit('connection', served);
    return client;
  };
  return agent;
}
