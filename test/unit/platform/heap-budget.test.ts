import { describe, expect, it } from 'vitest';
import { collectedFirst, externalBudgetDuring, heapBudget } from '../../../local/heap-budget';
import { waitFor } from '../../support/wait';

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

describe('externalBudgetDuring (local/heap-budget.ts): collections while Finalize runs, per growth of external memory', () => {
  /** External memory the test sets, a collection that frees what is dead, and a step that ends when the test says. */
  function fakeExternal() {
    const mem = { external: 40 * MB, live: 40 * MB, collections: 0 };
    let finish!: (answer: string) => void;
    const ended = new Promise<string>((resolve) => (finish = resolve));
    const collect = () => {
      mem.collections++;
      mem.external = mem.live;
    };
    return { mem, collect, finish, step: () => ended };
  }

  it('starts a collection each time external memory has grown by the budget since the last, and none after the step', async () => {
    const { mem, collect, finish, step } = fakeExternal();
    const running = externalBudgetDuring(step, 24 * MB, collect, () => mem.external, 1)(undefined);
    mem.external = 60 * MB;
    // 20 MB of growth: under the budget, nothing yet; then past it.
    await new Promise((r) => setTimeout(r, 20));
    expect(mem.collections).toBe(0);
    mem.external = 65 * MB;
    await waitFor('a first collection', () => (mem.collections === 1 ? true : null), 10_000, 1);
    expect(mem.external).toBe(40 * MB);
    mem.external = 70 * MB;
    await waitFor('a second collection', () => (mem.collections === 2 ? true : null), 10_000, 1);
    finish('written');
    await expect(running).resolves.toBe('written');
    mem.external = 200 * MB;
    await new Promise((r) => setTimeout(r, 20));
    expect(mem.collections).toBe(2);
  });

  it('takes a collection V8 made on its own as the new base', async () => {
    const { mem, collect, finish, step } = fakeExternal();
    const running = externalBudgetDuring(step, 24 * MB, collect, () => mem.external, 1)(undefined);
    mem.external = 60 * MB;
    await new Promise((r) => setTimeout(r, 10));
    // V8 collected: 30 MB left. Growth counts from there: 50 MB is 20 over it, no collection.
    mem.external = 30 * MB;
    await new Promise((r) => setTimeout(r, 10));
    mem.external = 50 * MB;
    await new Promise((r) => setTimeout(r, 20));
    expect(mem.collections).toBe(0);
    finish('written');
    await running;
  });

  it('passes the step\'s failure through and stops watching', async () => {
    const mem = { collections: 0 };
    const failing = externalBudgetDuring(() => Promise.reject(new Error('store down')), 24 * MB, () => mem.collections++, () => 500 * MB, 1);
    await expect(failing(undefined)).rejects.toThrow('store down');
  });

  it('runs the step alone without gc (a process not started with --expose-gc)', async () => {
    await expect(externalBudgetDuring(async (n: number) => n + 1, 24 * MB, undefined)(1)).resolves.toBe(2);
  });
});

