import type { ByteSink } from './byte-sink';

// The original's bytes as the processed file's writer reads them (processed-file.ts): a record's
// bytes are copied once `has` says they are at hand; otherwise the writer awaits `load` first.
// In memory (a Buffer) everything is at hand. Streamed (finalize), only a window is: the bytes
// from the record being copied to the end of the last piece read, so reading forward holds about
// one piece of the stream; a record before the window opens the object again (a new pass).

export interface OriginalBytes {
  has(start: number, end: number): boolean;
  load(start: number, end: number): Promise<void>;
  /** Whether loading from `start` goes on with the pass under way (false: it would open a new one). */
  inPass(start: number): boolean;
  copy(out: ByteSink, start: number, end: number): void;
  /** The bytes from `start` to `end`, at hand, decoded (a whole record: never a cut UTF-8 sequence). */
  text(start: number, end: number): string;
}

export const inMemory = (bytes: Buffer): OriginalBytes => ({
  has: () => true,
  load: () => Promise.resolve(),
  inPass: () => true,
  copy: (out, start, end) => out.copy(bytes, start, end),
  text: (start, end) => bytes.toString('utf8', start, end),
});

export type OpenStream = () => Promise<AsyncIterable<Uint8Array>>;

export class StreamedOriginal implements OriginalBytes {
  private pieces: Buffer[] = [];
  /** Offset of the first piece held, and of the byte after the last. */
  private base = 0;
  private loaded = 0;
  private reader: AsyncIterator<Uint8Array> | null = null;
  /** How many times the object was opened (each a pass over it). */
  passes = 0;

  constructor(private readonly open: OpenStream) {}

  has(start: number, end: number): boolean {
    return start >= this.base && end <= this.loaded;
  }

  inPass(start: number): boolean {
    return this.reader !== null && start >= this.base;
  }

  /** Bytes held now (the window). */
  get held(): number {
    return this.loaded - this.base;
  }

  async load(start: number, end: number): Promise<void> {
    if (start < this.base || !this.reader) await this.reopen();
    this.drop(start);
    while (this.loaded < end) {
      const next = await this.reader!.next();
      if (next.done) throw new Error(`the original ends at byte ${this.loaded}; its layout has a record up to byte ${end}`);
      const piece = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
      if (!this.pieces.length) this.base = this.loaded;
      this.pieces.push(piece);
      this.loaded += piece.length;
      this.drop(start);
    }
  }

  copy(out: ByteSink, start: number, end: number): void {
    if (!this.has(start, end)) throw new Error(`bytes ${start}-${end} of the original are not at hand (load them first)`);
    let at = this.base;
    for (const piece of this.pieces) {
      const pieceEnd = at + piece.length;
      if (pieceEnd > start && at < end) out.copy(piece, Math.max(start, at) - at, Math.min(end, pieceEnd) - at);
      if (pieceEnd >= end) return;
      at = pieceEnd;
    }
  }

  text(start: number, end: number): string {
    if (!this.has(start, end)) throw new Error(`bytes ${start}-${end} of the original are not at hand (load them first)`);
    const parts: Buffer[] = [];
    let at = this.base;
    for (const piece of this.pieces) {
      const pieceEnd = at + piece.length;
      if (pieceEnd > start && at < end) parts.push(piece.subarray(Math.max(start, at) - at, Math.min(end, pieceEnd) - at));
      if (pieceEnd >= end) break;
      at = pieceEnd;
    }
    return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).toString('utf8');
  }

  /** The first `n` bytes (fewer when the original is shorter), reading from the start. */
  async head(n: number): Promise<Buffer> {
    await this.reopen();
    while (this.loaded < n) {
      const next = await this.reader!.next();
      if (next.done) break;
      this.pieces.push(Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength));
      this.loaded += next.value.byteLength;
    }
    return Buffer.concat(this.pieces).subarray(0, n);
  }

  /** Ends the pass under way (the stream is let go). */
  async close(): Promise<void> {
    const reader = this.reader;
    this.reader = null;
    this.pieces = [];
    this.base = this.loaded = 0;
    await reader?.return?.();
  }

  private async reopen(): Promise<void> {
    await this.close();
    this.reader = (await this.open())[Symbol.asyncIterator]();
    this.passes++;
  }

  /** Lets go of the pieces wholly before `start`. */
  private drop(start: number): void {
    while (this.pieces.length > 1 && this.base + this.pieces[0]!.length <= start) this.base += this.pieces.shift()!.length;
  }
}
