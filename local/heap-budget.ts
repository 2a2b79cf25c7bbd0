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
