import { useRef } from 'preact/hooks';

/**
 * A page reads its list again after each change it makes, and those reads can be answered out of
 * order: the page's first read, held up on a slow network, may arrive after the read that followed
 * a change, and applied last it would hide the change. The reads of one list go through the
 * function this returns: an answer (or an error) is applied only if no read of the list was started
 * after it. It resolves to the answer applied, or `superseded` when a later read owns the list.
 */
export function useLatestRead(): <T>(read: () => Promise<T>, apply: (value: T) => void) => Promise<T | typeof superseded> {
  const latest = useRef(0);
  return async (read, apply) => {
    const mine = ++latest.current;
    try {
      const value = await read();
      if (mine !== latest.current) return superseded;
      apply(value);
      return value;
    } catch (e) {
      if (mine !== latest.current) return superseded;
      throw e;
    }
  };
}

export const superseded = Symbol('superseded');
