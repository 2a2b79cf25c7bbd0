import { getHeapStatistics } from 'node:v8';

/** V8's `gc`, which Node exposes with `--expose-gc`: an async major collection is incremental and does not hold the event loop. */
type ExposedGc = ((options: { type: 'major'; execution: 'async' }) => Promise<void>) & (() => void);
const exposedGc = (globalThis as { gc?: ExposedGc }).gc;
const startCollection = exposedGc ? () => void exposedGc({ type: 'major', execution: 'async' }) : undefined;

/**
 * A full collection, done before it returns (`gc()`): tens of milliseconds of the event loop,
 * once per upload (collectedFirst). Undefined without `--expose-gc`.
 */
export const fullCollection: (() => void) | undefined = exposedGc ? () => exposedGc() : undefined;

/**
 * `handler`, started on a heap collected just before: for the step that holds the most (Finalize:
 * its part buffers and per-row arrays, and the Buffers of its passes over the original), so that
 * what the steps before it left under the budget (25–35 MB of V8's heap in some runs) is not still
 * there at its highest moment, as it would not be in a Lambda of its own.
 */
export const collectedFirst =
  <I, O>(handler: (input: I) => Promise<O>, collect: (() => void) | undefined = fullCollection) =>
  (input: I): Promise<O> => {
    collect?.();
    return handler(input);
  };

/**
 * The heap in use and the memory its objects hold outside it (Buffers and ArrayBuffers, V8's
 * external memory). Buffers that outlived a minor collection are freed only by a major one, which
 * V8 starts on its own only once external memory has grown by about 64 MB: a step that reads and
 * writes files (Finalize) leaves 30–40 MB of them, which the heap's own size does not show.
 */
function heapAndExternal(): number {
  const { used_heap_size, external_memory } = getHeapStatistics();
  return used_heap_size + external_memory;
}

/**
 * A collection between workflow steps once the heap and its external memory have grown by
 * `growthBytes` since the last one.
 *
 * In AWS each step runs in a Lambda invocation of its own and its garbage goes with it; here every
 * step runs in the one `npm start` process, and V8 lets the old generation grow to about three
 * times what is live before it collects (about 70 → 240 MB over one upload's chunks,
 * docs/performance.md), so the process's peak followed what all the steps had left behind, not
 * what one step holds. Called after each step, this starts a collection when the heap's growth
 * since the last one passes the budget (a handful per 250,000-row upload), and does nothing
 * otherwise. Without `gc` (Node not started with `--expose-gc`, LOCAL_NODE_ARGS in
 * bin/local-bundle.ts: the tests' in-process runtime) it does nothing.
 */
export function heapBudget(growthBytes: number, collect: (() => void) | undefined = startCollection, usedHeap = heapAndExternal): () => void {
  let base = usedHeap();
  return () => {
    if (!collect) return;
    const used = usedHeap();
    // V8 collected on its own since: what it left is the new base.
    if (used < base) base = used;
    if (used - base < growthBytes) return;
    collect();
    base = usedHeap();
  };
}

/** How much V8's external memory may grow during Finalize before a collection is started (externalBudgetDuring). */
export const FINALIZE_EXTERNAL_GROWTH_BYTES = 24 * 1024 * 1024;

/**
 * `handler`, with a full collection started (incremental, as `heapBudget`'s) each time V8's
 * external memory has grown by `growthBytes` since the last one, checked every `everyMs` while it
 * runs.
 *
 * For Finalize: its passes over the original and its parts go through the embedded store's HTTP in
 * this same process, whose 64 KiB Buffers die young but are freed only by a full collection, and
 * V8 starts one on its own only after about 64 MB of them (docs/performance.md, "The local
 * process's memory, tenth round"): that pile was what the process's peak held above 1 kB a row. A
 * minor collection does not help (more scavenges promote more of the Buffers in flight, which then
 * wait for a full one: the sixth and thirteenth sessions' tries). A Lambda's Finalize has no such
 * pile: it holds no store. The cost is CPU: the process spent about a fifth more on a 250,000-row
 * upload and nearly half more on a 100 MB one ("twelfth round").
 */
export const externalBudgetDuring =
  <I, O>(handler: (input: I) => Promise<O>, growthBytes = FINALIZE_EXTERNAL_GROWTH_BYTES, collect: (() => void) | undefined = startCollection, external = () => getHeapStatistics().external_memory, everyMs = 20) =>
  async (input: I): Promise<O> => {
    if (!collect) return handler(input);
    let base = external();
    const timer = setInterval(() => {
      const now = external();
      // Collected since (by V8 or by this): what is left is the new base.
      if (now < base) base = now;
      else if (now - base >= growthBytes) {
        collect();
        // After a collection done at once, what it left; after one started, what is there now
        // (its freeing shows later as a drop below the base).
        base = external();
      }
    }, everyMs);
    // It watches the step; it never keeps the process alive on its own (a shutdown waits for no tick).
    timer.unref();
    try {
      return await handler(input);
    } finally {
      clearInterval(timer);
    }
  };
