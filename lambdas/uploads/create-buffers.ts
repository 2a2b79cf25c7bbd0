// Create writes the work file and the layout into Buffers: json-bytes.ts's pieces as it plans the
// rows, then each object joined whole for its put. Allocated anew by every create, those were
// 35 MB per 250,000 rows of memory outside V8's heap, each Buffer alive until the put and so
// freed only by a full collection; V8 counts that memory against the old generation's limit, and
// creates back to back ran about two full collections of the whole heap each. The buffers are kept
// here for the next create instead: in one process, alternating creates with and without, 0.83 of
// the CPU (docs/performance.md, "Create's CPU, eighth step").

/** The size of every piece (json-bytes.ts writes in pieces of this size). */
export const PIECE_BYTES = 256 * 1024;

/** What the pool keeps between creates at most; a larger create's surplus is left to the collector. */
export const POOL_BYTES = 48 * 1024 * 1024;

/** Objects smaller than this are joined into Buffers of their own, never pooled. */
const POOLED_JOIN_BYTES = 1024 * 1024;

const freePieces: Buffer[] = [];
/** Buffers objects were joined in, smallest first. */
const freeJoins: Buffer[] = [];
let pooledBytes = 0;

function giveBack(buffer: Buffer, into: Buffer[]): void {
  if (pooledBytes + buffer.length > POOL_BYTES) return;
  pooledBytes += buffer.length;
  if (into === freePieces) into.push(buffer);
  else into.splice(sortedIndex(into, buffer.length), 0, buffer);
}

function sortedIndex(buffers: Buffer[], length: number): number {
  let i = 0;
  while (i < buffers.length && buffers[i]!.length < length) i++;
  return i;
}

/**
 * The buffers one create writes in, each its own until given back: `releasePieces` once the pieces
 * are joined, `release` once the joined objects are stored. A lease never given back (a create
 * refused mid-file) is simply left to the collector.
 */
export class CreateBuffers {
  private pieces: Buffer[] = [];
  private joins: Buffer[] = [];

  /** A piece of PIECE_BYTES, the pool's or new. */
  piece(): Buffer {
    const reused = freePieces.pop();
    if (reused) pooledBytes -= reused.length;
    const piece = reused ?? Buffer.allocUnsafe(PIECE_BYTES);
    this.pieces.push(piece);
    return piece;
  }

  /** `parts` copied one after another into one Buffer: the pool's smallest that holds them, or a new one with room for a larger next create. */
  join(parts: readonly Buffer[]): Buffer {
    let length = 0;
    for (const part of parts) length += part.length;
    if (length < POOLED_JOIN_BYTES) return Buffer.concat(parts, length);
    const at = sortedIndex(freeJoins, length);
    let into: Buffer;
    if (at < freeJoins.length) {
      into = freeJoins.splice(at, 1)[0]!;
      pooledBytes -= into.length;
    } else into = Buffer.allocUnsafe(Math.ceil((length * 1.125) / POOLED_JOIN_BYTES) * POOLED_JOIN_BYTES);
    this.joins.push(into);
    let written = 0;
    for (const part of parts) written += part.copy(into, written);
    return into.subarray(0, length);
  }

  /** The pieces back to the pool: what was written in them must have been joined (or dropped). */
  releasePieces(): void {
    for (const piece of this.pieces) giveBack(piece, freePieces);
    this.pieces = [];
  }

  /** Everything back to the pool: nothing written in the lease may be read after. */
  release(): void {
    this.releasePieces();
    for (const join of this.joins) giveBack(join, freeJoins);
    this.joins = [];
  }
}

/** The pool emptied (its buffers left to the collector): the local process before its largest step. */
export function emptyCreateBufferPool(): void {
  freePieces.length = 0;
  freeJoins.length = 0;
  pooledBytes = 0;
}

/** Bytes the pool holds now (tests). */
export const pooledCreateBytes = (): number => pooledBytes;
