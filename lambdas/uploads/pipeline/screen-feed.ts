// The numbers a paid chunk's workers take, screened a batch at a time as they are needed: each
// batch is asked of the range screen and the lookup cache in one read (BatchGetItem, 100 keys), and
// only what is left is handed out for a paid lookup. The next batch is read while the workers
// still have at least one number each, so they seldom wait on it; an invocation that stops at its
// budget has read at most one batch ahead of what it looked up.

/** Numbers screened at once: one BatchGetItem. */
export const SCREEN_BATCH = 100;

export interface ScreenFeed {
  /** The next number needing a paid lookup, or undefined when none is left. */
  take(): Promise<number | undefined>;
}

/**
 * A feed over `pending`: `screen` answers a batch and resolves to the numbers of it that still
 * need a paid lookup. A failed screen fails every take after it.
 */
export function screenFeed(pending: readonly number[], screen: (batch: number[]) => Promise<number[]>, workers: number, batchSize = SCREEN_BATCH): ScreenFeed {
  let next = 0;
  const ready: number[] = [];
  let reading: Promise<void> | null = null;
  let failure: { error: unknown } | null = null;

  const readNext = (): Promise<void> =>
    (reading ??= (async () => {
      try {
        const batch = pending.slice(next, next + batchSize);
        next += batch.length;
        ready.push(...(await screen(batch)));
      } catch (error) {
        failure = { error };
      } finally {
        reading = null;
      }
    })());

  return {
    async take() {
      for (;;) {
        if (failure) throw failure.error;
        const index = ready.shift();
        if (index !== undefined) {
          if (ready.length < workers && next < pending.length) void readNext();
          return index;
        }
        if (next >= pending.length && !reading) return undefined;
        await readNext();
      }
    },
  };
}
