import type { Organization } from '../auth/identity-repository';
import { nowMs } from '../platform/clock';
import { Conflict, NotFound } from '../platform/domain-errors';
import { crashPoint } from '../platform/crash-point';
import type { Carrier } from './carriers';
import { effectiveLimit } from './limits';
import { countOrgNumbers, deleteNumberItem, getNumber, holdSlotAgain, listOrgNumbers, markDeleting, orgOrderKey, releasePhone, releaseSlot, releaseSlotOf, settleSlot, SLOT_CHANGE_BOUND_MS, type NumberRecord } from './number-repository';
import { historyItemView, monitoredNumberView, screenshotAvailable } from './present';
import { deleteRuns, listRuns } from './run-repository';
import { getScreenshot } from './screenshots';

// The spam monitoring API's rules for numbers already registered: the limit, reading results,
// removing a number. Registering and verifying one (number-enrollment.ts) is a module of its own:
// it reads phone numbers and sends codes, which a cold start serving a list need not load.

/** The number `id` when it is the organization's; 404 otherwise. */
export async function ownNumber(orgId: string, id: string): Promise<NumberRecord> {
  const n = await getNumber(id);
  if (!n || n.organization_id !== orgId) throw new NotFound('Monitored number not found');
  return n;
}

/** active when within the organization's limit (oldest first), paused beyond it. */
export async function numberStatus(org: Organization, n: Pick<NumberRecord, 'id' | 'created_at'>): Promise<'active' | 'paused'> {
  const limit = effectiveLimit(org);
  if (limit === null) return 'active';
  const older = await countOrgNumbers(org.id, { before: orgOrderKey(n), max: limit });
  return older < limit ? 'active' : 'paused';
}

/** One page: only the numbers up to it are read; the list is in the limit's order, so a number's place says whether it is in. */
export async function listNumbers(org: Organization, limit: number, offset: number) {
  const [upToPage, total] = await Promise.all([listOrgNumbers(org.id, offset + limit), countOrgNumbers(org.id)]);
  const cap = effectiveLimit(org);
  const now = nowMs();
  return {
    numbers: upToPage.slice(offset).map((n, i) => monitoredNumberView(n, cap === null || offset + i < cap ? 'active' : 'paused', now)),
    spam_monitoring_limit: cap,
    total,
  };
}

export async function getNumberView(org: Organization, id: string) {
  const n = await ownNumber(org.id, id);
  return monitoredNumberView(n, await numberStatus(org, n), nowMs());
}

export async function history(org: Organization, id: string) {
  const n = await ownNumber(org.id, id);
  const now = nowMs();
  const results = (await listRuns(id, now)).map((r) => historyItemView(r, now));
  return { number_id: id, phone_number: n.phone_number, results, total: results.length };
}

export async function screenshot(org: Organization, id: string, carrier: Carrier | undefined): Promise<{ bytes: Buffer; contentType: string }> {
  const n = await ownNumber(org.id, id);
  const now = nowMs();
  const candidates = Object.values(n.carrier_statuses ?? {})
    .filter((s) => (carrier ? s.carrier === carrier : true) && screenshotAvailable(s, now))
    .sort((a, b) => b.captured_at!.localeCompare(a.captured_at!));
  const latest = candidates[0];
  // A carrier's latest test may have failed without a screenshot; fall back to its history.
  const source = latest ?? (await listRuns(id, now)).find((r) => (carrier ? r.carrier === carrier : true) && screenshotAvailable(r, now));
  if (!source?.screenshot_key) throw new NotFound(carrier ? `No screenshot for ${carrier} in the last 7 days` : 'No screenshot in the last 7 days');
  const bytes = await getScreenshot(source.screenshot_key);
  if (!bytes) throw new NotFound('Screenshot no longer available');
  return { bytes, contentType: source.screenshot_content_type ?? 'image/jpeg' };
}

export async function deleteNumber(org: Organization, id: string) {
  const n = await ownNumber(org.id, id);
  const at = nowMs();
  // One delete at a time (a client's retry beside its first try): the number is marked first, so
  // only one puts its slot back on the counter and gives it back.
  if (!(await markDeleting(id, at, at - SLOT_CHANGE_BOUND_MS))) return deleteUnderWay(org, id);
  crashPoint('spam.after-delete-marked');
  // Its slot back on the counter, listed for recovery: a crash after the number is gone leaves the
  // phone and the slot to recovery; one before leaves a live, marked number whose slot the next
  // delete of it gives back (recovery leaves a slot stamped by the number's mark).
  if (n.slot_reserved) await holdSlotAgain(org.id, { numberId: id, phone: n.phone_number, at });
  // Removing the item first stops the daily run from testing it; a run already under way fails
  // its conditional writes for this number and stops. Screenshots expire with the bucket rule.
  const removed = await deleteNumberItem(id, at);
  if (!removed) {
    // Taken over by a later delete (this one outlived SLOT_CHANGE_BOUND_MS), which gives the slot
    // back: the stamp this one put there, if still there, goes without touching the count.
    if (n.slot_reserved) await settleSlot(org.id, id, at);
    throw new NotFound('Monitored number not found');
  }
  crashPoint('spam.after-number-deleted');
  await releasePhone(org.id, n.phone_number, id);
  // A number added before slots were held by name gives back its share of the count (not idempotent).
  if (n.slot_reserved) await releaseSlotOf(org.id, id);
  else await releaseSlot(org.id);
  await deleteRuns(id);
  return { success: true, number_id: id, phone_number: n.phone_number, message: 'Monitoring stopped; the number and its history were removed.' };
}

/** Another delete of the number is under way (or was killed less than SLOT_CHANGE_BOUND_MS ago). */
async function deleteUnderWay(org: Organization, id: string): Promise<never> {
  await ownNumber(org.id, id);
  throw new Conflict('Another request is deleting this number; if it is still listed in a few minutes, delete it again');
}
