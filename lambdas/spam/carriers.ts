// The three carriers the spec tests on, in the order results are listed.
export const CARRIERS = ['at&t', 't-mobile', 'verizon'] as const;
export type Carrier = (typeof CARRIERS)[number];

export const isCarrier = (value: unknown): value is Carrier => typeof value === 'string' && (CARRIERS as readonly string[]).includes(value);

export type CarrierTestStatus = 'pending' | 'running' | 'completed' | 'failed';

/** Screenshots and history are kept this long (spec, Limits: spam history window). */
export const HISTORY_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** The UTC calendar day of an instant: one test per number, carrier and day. */
export const dayOf = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
