import { describe, expect, it } from 'vitest';
import { collectedFirst, heapBudget } from '../../../local/heap-budget';

const MB = 2 ** 20;

/**
 * A heap whose used size the test sets, a collection that brings it back to what is live, and
 * `stepEndsAt(mb)`: a step ends with the heap at `mb`, the budget is checked, and the count of
 * collections so far is answered.
 */
function fakeHeap(liveMb: number, collect = true) {
  const heap = { used: liveMb * MB, live: liveMb * MB, collections: 0 };
  const gc = () => {
    heap.collections++;
    heap.used = heap.live;
  };
  const afterStep = heapBudget(32 * MB, collect ? gc : undefined, () => heap.used);
  const stepEndsAt = (mb: number): number => {
    heap.used = mb * MB;
    afterStep();
    return heap.collections;
  };
  return { heap, stepEndsAt };
}

describe('heapBudget (local/heap-budget.ts): a collection between steps once the heap has grown past the budget', () => {
  it('collects only when the growth since the last collection reaches the budget', () => {
    const { heap, stepEndsAt } = fakeHeap(50);
    expect(stepEndsAt(81)).toBe(0);
    expect(stepEndsAt(82)).toBe(1);
    expect(heap.used).toBe(50 * MB);
    // Measured from what the collection left, not from the start.
    expect(stepEndsAt(81)).toBe(1);
    heap.live = 60 * MB;
    expect(stepEndsAt(83)).toBe(2);
    expect(stepEndsAt(91)).toBe(2);
    expect(stepEndsAt(93)).toBe(3);
  });

  it('takes a collection V8 made on its own as the new base', () => {
    const { stepEndsAt } = fakeHeap(50);
    stepEndsAt(40);
    expect(stepEndsAt(71)).toBe(0);
    expect(stepEndsAt(72)).toBe(1);
  });

  it('does nothing where gc is not exposed', () => {
    const { heap, stepEndsAt } = fakeHeap(50, false);
    expect(() => stepEndsAt(500)).not.toThrow();
    expect(heap.used).toBe(500 * MB);
  });
});

describe('collectedFirst (local/heap-budget.ts): the step that holds the most starts on a collected heap', () => {
  it('collects before the step starts, then answers what the step answers', async () => {
    const order: string[] = [];
    const step = collectedFirst(
      async (input: { upload_id: string }) => {
        order.push(`step ${input.upload_id}`);
        return { status: 'completed' };
      },
      () => order.push('collect'),
    );
    await expect(step({ upload_id: 'u1' })).resolves.toEqual({ status: 'completed' });
    expect(order).toEqual(['collect', 'step u1']);
  });
});
