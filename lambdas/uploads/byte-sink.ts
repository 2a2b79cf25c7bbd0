// A growing byte buffer: the processed file and its slices are written straight into bytes (copied
// ranges of the original, UTF-8 of the service's cells) instead of one string per line joined at
// the end, which for 250,000 rows held the lines, their join and its UTF-8 copy at once.

export class ByteSink {
  private buf: Buffer;
  private len = 0;
  /** Bytes handed out by `drain` since the last reset. */
  private drained = 0;

  /**
   * `growTo`: the size doubling stops at (a larger write still gets its room): a sink drained
   * every part needs a part and a line, not the double of the last size under a part.
   */
  constructor(
    capacity: number,
    private readonly growTo = Infinity,
  ) {
    this.buf = Buffer.allocUnsafe(Math.max(64, capacity));
  }

  private reserve(n: number): void {
    if (this.len + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.len + n, Math.min(this.buf.length * 2, this.growTo)));
    this.buf.copy(next, 0, 0, this.len);
    this.buf = next;
  }

  write(text: string): void {
    // UTF-8 takes at most 3 bytes per UTF-16 unit.
    this.reserve(text.length * 3);
    this.len += this.buf.write(text, this.len, 'utf8');
  }

  copy(source: Buffer, start: number, end: number): void {
    this.reserve(end - start);
    this.len += source.copy(this.buf, this.len, start, end);
  }

  /** Bytes written so far (those drained included). */
  get length(): number {
    return this.drained + this.len;
  }

  /** Bytes of memory it holds. */
  get capacity(): number {
    return this.buf.length;
  }

  /** Bytes written since the last drain. */
  get pending(): number {
    return this.len;
  }

  /** Starts again at the beginning, keeping the memory (the next file of the same upload is about as large). */
  reset(): this {
    this.len = 0;
    this.drained = 0;
    return this;
  }

  /** The bytes written (a view: no copy; valid until the next write after reset). Nothing may have been drained. */
  bytes(): Buffer {
    if (this.drained) throw new Error('ByteSink: bytes() after a drain holds only part of what was written');
    return this.buf.subarray(0, this.len);
  }

  /**
   * The bytes written since the last drain, handed out (a part of a file written as it goes): a
   * view valid until the next write; the memory is written again from its start, so a sink whose
   * bytes are drained every part never grows past a part and a line.
   */
  drain(): Buffer {
    const out = this.buf.subarray(0, this.len);
    this.drained += this.len;
    this.len = 0;
    return out;
  }
}
