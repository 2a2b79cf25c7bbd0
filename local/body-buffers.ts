// The local server reads each request body of a declared length into one Buffer of that length.
// For a large body that Buffer was fresh memory every time: glibc hands a block that size out of
// newly mapped pages, and on this kind of virtual machine the first touch of each page costs about
// 12 µs (a 22 MB body: 5,400 page faults, 60-70 ms of CPU to copy what a warm buffer takes in 2-3 ms;
// docs/performance.md, "Create's CPU, eleventh step"). Its release also waits for a full collection
// of V8's heap, and 22 MB of outside memory per request counts toward starting one. So the buffer a
// large body was read into is kept for the next one, as create keeps its own (create-buffers.ts).
//
// A handler owns the body only until it returns (raw-body.ts): the buffer is zeroed when it comes
// back, so a part of it kept past that reads zeros, never another request's bytes.

/** Bodies smaller than this get a Buffer of their own: they cost little to allocate. */
export const POOLED_BODY_MIN_BYTES = 1024 * 1024;

/** The largest buffer kept between requests; a larger body's is left to the collector. */
export const POOLED_BODY_MAX_BYTES = 32 * 1024 * 1024;

/** A body's buffer until `release`: `bytes` is exactly the declared length. */
export interface BodyLease {
  bytes: Buffer;
  release(): void;
}

/**
 * One buffer kept between requests: the largest given back within POOLED_BODY_MAX_BYTES. Requests
 * at the same time each get one (the kept one, or new); a smaller one given back is dropped.
 */
export class BodyBuffers {
  private kept: Buffer | null = null;

  lease(length: number): BodyLease {
    if (length < POOLED_BODY_MIN_BYTES || length > POOLED_BODY_MAX_BYTES) return { bytes: Buffer.allocUnsafe(length), release: () => undefined };
    let buffer: Buffer;
    if (this.kept && this.kept.length >= length) {
      buffer = this.kept;
      this.kept = null;
    } else {
      // Rounded up, so that a slightly larger next body still fits.
      buffer = Buffer.allocUnsafe(Math.min(POOLED_BODY_MAX_BYTES, Math.ceil(length / POOLED_BODY_MIN_BYTES) * POOLED_BODY_MIN_BYTES));
    }
    let held = true;
    return {
      bytes: buffer.subarray(0, length),
      release: () => {
        if (!held) return;
        held = false;
        buffer.fill(0, 0, length);
        if (!this.kept || this.kept.length < buffer.length) this.kept = buffer;
      },
    };
  }

  /** Bytes kept between requests (tests). */
  keptBytes(): number {
    return this.kept?.length ?? 0;
  }
}
