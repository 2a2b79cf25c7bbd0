import { resetCounter, type Price } from '../credits/charge-before-write';
import { contactCharge } from './contact';

// The organization's current queued max-tier batch (max contacts not yet processing): a counter
// on the organization's balance item, so a max contact's place in the 2, 1, 2, 1 sequence and its
// charge are taken in one conditional write, and a charge refused for credits takes no place.
// (Before, the counter was its own item, `ORG#<org>` / `CONTACTBATCH#max`, and a max contact was
// charged 2 then refunded 1 at an even place.)

export const MAX_BATCH_COUNTER = 'contact_max_batch_places';

/** The max batch's price as the balance item's counter takes it: odd places as place 1, even as place 2 (`contactCharge`). */
const MAX_BATCH_PRICE = { counter: MAX_BATCH_COUNTER, odd: contactCharge('max', 1), even: contactCharge('max', 2) };

/** How a contact of `tier` is priced: standard a fixed 1, max by the next place of the batch. */
export function contactPrice(tier: 'standard' | 'max'): Price {
  return tier === 'max' ? MAX_BATCH_PRICE : { amount: contactCharge('standard', null) };
}

/**
 * The pool takes the batch: the next max contact starts a new one at place 1 (charge 2). Answers
 * which batch closed (the contacts charged in it carry it as `batch_sequence`), or null when the
 * organization has no balance.
 */
export async function closeBatch(orgId: string): Promise<number | null> {
  return resetCounter(orgId, MAX_BATCH_PRICE);
}
