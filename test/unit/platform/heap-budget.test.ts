import { describe, expect, it } from 'vitest';
import { heapBudget } from '../../../local/heap-budget';

const MB = 2 ** 20;

/** A heap whose used size the test sets, and a collection that brings it back to what is live. */
function fakeHeap(live: number) {
  const heap = { used: live, live, collections: 0 };
  const gc = () => {
    heap.collections++;
    heap.used = heap.live;
  };
  return { heap, gc, used: () => heap.used };
}

describe('heapBudget (local/heap-budget.ts): a collection between steps once the heap has grown past the budget', () => {
  it('collects only when the growth since the last collection reaches the budget', () => {
    const { heap, gc, used } = fakeHeap(50 * MB);
    const afterStep = heapBudget(32 * MB, gc, used);
    heap.used = 81 * MB;
    afterStep();
    expect(heap.collections).toBe(0);
    heap.used = 82 * MB;
    afterStep();
    expect(heap.collections).toBe(1);
    expect(heap.used).toBe(50 * MB);
    // Measured from what the collection left, not from the start.
    heap.used = 81 * MB;
    afterStep();
    expect(heap.collections).toBe(1);
    heap.live = 60 * MB;
    heap.used = 83 * MB;
    afterStep();
    expect(heap.collections).toBe(2);
    heap.used = 91 * MB;
    afterStep();
    expect(heap.collections).toBe(2);
    heap.used = 93 * MB;
    afterStep();
    expect(heap.collections).toBe(3);
  });

  it('takes a collection V8 made on its own as the new base', () => {
    const { heap, gc, used } = fakeHeap(50 * MB);
    const afterStep = heapBudget(32 * MB, gc, used);
    heap.used = 40 * MB;
    afterStep();
    heap.used = 71 * MB;
    afterStep();
    expect(heap.collections).toBe(0);
    heap.used = 72 * MB;
    afterStep();
    expect(heap.collections).toBe(1);
  });

  it('does nothing where gc is not exposed', () => {
    const { heap, used } = fakeHeap(50 * MB);
    const afterStep = heapBudget(32 * MB, undefined, used);
    heap.used = 500 * MB;
    expect(() => afterStep()).not.toThrow();
    expect(heap.used).toBe(500 * MB);
  });
});
