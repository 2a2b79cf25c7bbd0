/**
 * A budget of bytes that requests hold while their bodies are in memory. Requests that would go
 * over it wait, in arrival order, without their bodies being read (TCP holds the client back), so
 * many large uploads at once queue instead of exhausting the heap. A request larger than the whole
 * budget runs alone.
 */
export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; grant: () => void }[] = [];

  constructor(readonly capacity: number) {
    if (!(capacity > 0)) throw new Error(`A byte budget must be positive; got ${capacity}`);
  }

  /** Resolves with a release function once `bytes` fit. */
  async acquire(bytes: number): Promise<() => void> {
    const need = Math.min(Math.max(0, bytes), this.capacity);
    if (need === 0) return () => undefined;
    if (this.waiting.length === 0 && this.used + need <= this.capacity) this.used += need;
    else await new Promise<void>((grant) => this.waiting.push({ bytes: need, grant }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= need;
      this.grantWaiting();
    };
  }

  get inUse(): number {
    return this.used;
  }

  /** Requests waiting for their share. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Nothing held and nobody waiting: the budget can be forgotten. */
  get idle(): boolean {
    return this.used === 0 && this.waiting.length === 0;
  }

  private grantWaiting(): void {
    while (this.waiting.length && this.used + this.waiting[0]!.bytes <= this.capacity) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.grant();
    }
  }
}
