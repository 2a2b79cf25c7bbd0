import { perConfig } from '../platform/per-config';
import type { SliceIndex } from './slice-index';

// The slice indexes a container read last, kept while it stays warm: an index never changes once
// finalize wrote it (one per upload, the same bytes if finalize runs again), and the slices
// a person asks for come in runs on one upload (the console's filters one after another), each of
// which would otherwise read the whole index again (15 bytes a row: 3.75 MB at 250,000 rows).

/** Indexes kept at most, and their bytes at most (the newest is always kept). */
export const KEPT_INDEXES = 4;
export const KEPT_BYTES = 32 * 1024 * 1024;

interface Entry<T> {
  value: Promise<T | null>;
  bytes: number;
}

/**
 * A memo of `load(key)`, newest last, bounded by count and by the `size` of what it keeps: one load
 * per key at a time (concurrent callers share it), a failed or empty load not kept.
 */
export class BoundedMemo<T> {
  private readonly entries = new Map<string, Entry<T>>();

  constructor(
    private readonly size: (value: T) => number,
    private readonly most = KEPT_INDEXES,
    private readonly mostBytes = KEPT_BYTES,
  ) {}

  get(key: string, load: () => Promise<T | null>): Promise<T | null> {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
      return hit.value;
    }
    const entry: Entry<T> = { value: load(), bytes: 0 };
    this.entries.set(key, entry);
    entry.value.then(
      (value) => {
        if (this.entries.get(key) !== entry) return;
        if (value === null) this.entries.delete(key);
        else {
          entry.bytes = this.size(value);
          this.trim();
        }
      },
      () => {
        if (this.entries.get(key) === entry) this.entries.delete(key);
      },
    );
    return entry.value;
  }

  /** The keys kept, oldest first. */
  keys(): string[] {
    return [...this.entries.keys()];
  }

  private trim(): void {
    let bytes = 0;
    for (const entry of this.entries.values()) bytes += entry.bytes;
    for (const [key, entry] of this.entries) {
      if (this.entries.size <= 1 || (this.entries.size <= this.most && bytes <= this.mostBytes)) return;
      this.entries.delete(key);
      bytes -= entry.bytes;
    }
  }
}

/** The container's memo of slice indexes, one per configuration (a local root configured again starts empty). */
export const sliceIndexMemo = /* @__PURE__ */ perConfig(() => new BoundedMemo<{ index: SliceIndex; bytes: number }>((kept) => kept.bytes));
