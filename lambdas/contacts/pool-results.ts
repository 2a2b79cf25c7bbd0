import { logger } from '../platform/logger';
import type { AnswerIntent, IdentityBand } from '../classification';
import { getContact } from './contact-repository';
import { completeContact, failContact } from './outcomes';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { noPoolLookupFailures, type PoolLookupFailures } from '../uploads/pool';

export type PoolRowResult =
  | { contact_id: string; answerIntent: AnswerIntent; identity: IdentityBand | null; status: string }
  | { contact_id: string; missing: true };

// What the integrator reads in a failed contact's error_message: what happened and what to do,
// nothing internal (the pool upload is not theirs to look up).
export const NO_RESULT = 'No result could be produced for this number; its credits were refunded. You can submit it again.';
export const PROCESSING_FAILED = 'Processing failed on our side; its credits were refunded. Submit the contact again, or contact support with this contact id.';

/**
 * Called by the upload pipeline when an `api_pool` upload finishes. Each contact of the pool gets
 * its result, or fails (and is refunded) when its row is missing or empty in the processed file, its
 * lookup failed (`lookupFailed`), or the whole upload failed. Safe to call again
 * for the same upload.
 */
export async function handlePoolUploadFinished(
  ports: DeliveryPorts,
  upload: { id: string; status: string; error_message?: string | null },
  rows: Iterable<PoolRowResult> | AsyncIterable<PoolRowResult>,
  contactIds: readonly string[],
  lookupFailed: PoolLookupFailures = noPoolLookupFailures,
): Promise<{ completed: number; failed: number }> {
  const seen = new Set<string>();
  let completed = 0;
  let failed = 0;
  if (upload.status === 'completed') {
    for await (const row of rows) {
      const contact = await getContact(row.contact_id);
      if (!contact || contact.pool_upload_id !== upload.id || seen.has(row.contact_id)) continue;
      seen.add(row.contact_id);
      // No row, or a number the provider never answered (after its retries): no result.
      if ('missing' in row || lookupFailed.contactIds.has(row.contact_id) || lookupFailed.numbers.has(contact.phone)) {
        if (await failContact(ports, contact, NO_RESULT)) failed++;
      } else if (await completeContact(ports, contact, { answerIntent: row.answerIntent, identity: row.identity })) {
        completed++;
      }
    }
  }
  // Contacts of the pool that got no row at all (or the upload failed) fail and are refunded.
  const reason = upload.status === 'completed' ? NO_RESULT : PROCESSING_FAILED;
  for (const id of contactIds) {
    if (seen.has(id)) continue;
    const contact = await getContact(id);
    if (!contact || contact.pool_upload_id !== upload.id || contact.status !== 'processing') continue;
    if (await failContact(ports, contact, reason)) failed++;
  }
  logger.info('contact pool finished', { upload_id: upload.id, completed, failed });
  return { completed, failed };
}
