import { nowMs } from '../platform/clock';
import { logger } from '../platform/logger';
import { getNumber, releasePhone, releaseSlotOf, settleSlot, SLOT_CHANGE_BOUND_MS, unwatchSlots, watchedCounters } from './number-repository';

/**
 * Finishes what an interrupted add or delete of a monitored number left on its organization's slot
 * counter. A slot whose number does not exist (never written, or deleted) gives back its phone and
 * its slot; a slot whose number exists (an add killed before it settled, or a number added before
 * slots were settled) leaves the counter and stays counted, held by the number, unless a delete of
 * the number stamped it and has not finished (that delete, or the next, gives it back). Slots stamped after `cutoffMs` are left alone (their change may still be
 * under way). Every write is conditional on the stamp read, so a run beside the interrupted
 * request, a delete that stamped the slot since, or another run changes nothing twice.
 * The scheduled run passes now − SLOT_CHANGE_BOUND_MS; the local runtime's start, its start time.
 */
export async function recoverSpamSlots(cutoffMs: number = nowMs() - SLOT_CHANGE_BOUND_MS): Promise<{ released: number; settled: number }> {
  let released = 0;
  let settled = 0;
  for await (const counter of watchedCounters(cutoffMs)) {
    for (const slot of counter.slots) {
      if (slot.at >= cutoffMs) continue;
      const number = await getNumber(slot.numberId);
      if (number) {
        // Stamped by a delete that has not finished (stalled, or killed before the number went):
        // that delete, or the one that takes it over, gives the slot back; settled here, a stalled
        // delete waking up would find no slot to give back and the count would keep it for ever.
        if (number.deleting_at === slot.at) continue;
        if (await settleSlot(counter.orgId, slot.numberId, slot.at)) settled++;
        continue;
      }
      await releasePhone(counter.orgId, slot.phone, slot.numberId);
      if (await releaseSlotOf(counter.orgId, slot.numberId, slot.at)) {
        released++;
        logger.warn('spam monitoring: slot of an interrupted add or delete given back', { organization_id: counter.orgId, number_id: slot.numberId });
      }
    }
    // Off the list unless another change began meanwhile (its own mark then keeps it listed).
    await unwatchSlots(counter.orgId, counter.mark);
  }
  if (settled > 0) logger.info('spam monitoring: slots of numbers that exist moved off their counters', { settled });
  return { released, settled };
}
