import { isCarrier, type Carrier } from './carriers';

/**
 * One unit of the daily run's fan-out: one number on one carrier. The planner has already written
 * its `pending` history row under `test_run_id`, so whichever worker takes the item (an SQS
 * consumer in AWS, an in-process pool locally) completes that same row.
 */
export interface SpamWorkItem {
  test_run_id: string;
  number_id: string;
  carrier: Carrier;
  day: string;
  /** When the item was planned (the row's tested_at until the test writes its own). */
  planned_at: string;
}

export function parseWorkItem(body: string): SpamWorkItem {
  const raw = JSON.parse(body) as Partial<Record<keyof SpamWorkItem, unknown>>;
  const text = (key: keyof SpamWorkItem): string => {
    const value = raw[key];
    if (typeof value !== 'string' || !value) throw new Error(`spam work item has no ${key}`);
    return value;
  };
  const carrier = raw.carrier;
  if (!isCarrier(carrier)) throw new Error(`spam work item names no known carrier (${String(carrier)})`);
  return { test_run_id: text('test_run_id'), number_id: text('number_id'), carrier, day: text('day'), planned_at: text('planned_at') };
}
