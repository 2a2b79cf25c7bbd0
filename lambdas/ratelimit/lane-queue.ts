// Callers waiting for the shared rate, by lane (the upload they work for): the next slot goes to
// the lane whose turn it is, then that lane goes to the back. Uploads waiting together get equal
// shares whatever their number of callers (a 1,000-number upload is not served in proportion to
// its few chunks next to a large one's many), and callers of one lane are served in order.

export interface LaneQueue<T> {
  /** Callers waiting, every lane together. */
  readonly size: number;
  push(lane: string, item: T): void;
  /** The first caller of the lane whose turn it is; undefined when none waits. */
  shift(): T | undefined;
}

export function laneQueue<T>(): LaneQueue<T> {
  // A Map iterates in insertion order: the lane served is deleted and, with callers left, set again at the end.
  const lanes = new Map<string, T[]>();
  let size = 0;
  return {
    get size() {
      return size;
    },
    push(lane, item) {
      const queue = lanes.get(lane);
      if (queue) queue.push(item);
      else lanes.set(lane, [item]);
      size++;
    },
    shift() {
      for (const [lane, queue] of lanes) {
        const item = queue.shift()!;
        lanes.delete(lane);
        if (queue.length) lanes.set(lane, queue);
        size--;
        return item;
      }
      return undefined;
    },
  };
}
