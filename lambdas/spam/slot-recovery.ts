import { nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { getNumber, releasePhone, releaseSlotOf, SLOT_CHANGE_BOUND_MS, unwatchSlots, watchedCounters } from './number-repository';

/**
 * Gives back what an interrupted add or delete of a monitored number kept: a slot held by a number
 * that does not exist (never written, or deleted) releases its phone and its slot. Slots reserved
 * after `cutoffMs` are left alone (an add may still be writing its number). Every release is
 * conditional, so a run beside the interrupted request or another run changes nothing twice.
 * The scheduled run passes now − SLOT_CHANGE_BOUND_MS; the local runtime's start, its start time.
 */
export async function recoverSpamSlots(cutoffMs: number = nowMs() - SLOT_CHANGE_BOUND_MS): Promise<{ released: number }> {
  let released = 0;
  for await (const counter of watchedCounters(cutoffMs)) {
    for (const slot of counter.slots) {
      if (slot.at >= cutoffMs || (await getNumber(slot.numberId))) continue;
      await releasePhone(counter.orgId, slot.phone, slot.numberId);
      if (await releaseSlotOf(counter.orgId, slot.numberId)) {
        released++;
        logger.warn('spam monitoring: slot of an interrupted add or delete given back', { organization_id: counter.orgId, number_id: slot.numberId });
      }
    }
    // Off the list unless another change began meanwhile (its own mark then keeps it listed).
    await unwatchSlots(counter.orgId, counter.mark);
  }
  return { released };
}
