/** Time allowed between an upload's end and the settling of what it still owes (refund, pooled contacts). */
export const SETTLE_BOUND_MS = 5 * 60_000;
