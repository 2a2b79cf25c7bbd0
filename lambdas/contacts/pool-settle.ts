import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { noPoolLookupFailures, poolContactIds, poolLookupFailures, poolRowResults, settleUpload, type UploadRecord } from '../uploads/pool';
import { handlePoolUploadFinished, type PoolRowResult } from './pool-results';

/** Each contact of an ended pool upload gets its result (or fails, refunded); then the upload is settled. */
export async function settlePoolUpload(ports: DeliveryPorts, upload: UploadRecord): Promise<void> {
  const ids = await poolContactIds(upload);
  const results = upload.status === 'completed' ? await poolRowResults(upload) : [];
  const rows: PoolRowResult[] =
    upload.status === 'completed'
      ? ids.map((contact_id, i) => {
          const cell = results.at(i)?.cells[0];
          return cell ? { contact_id, answerIntent: cell.answerIntent, identity: cell.identity, status: cell.status } : { contact_id, missing: true };
        })
      : [];
  // Read only when Finalize counted failed lookups (lookups_failed, set with the completion).
  const lookupFailed = upload.status === 'completed' && (upload.lookups_failed ?? 0) > 0 ? await poolLookupFailures(upload, ids) : noPoolLookupFailures;
  await handlePoolUploadFinished(ports, upload, rows, ids, lookupFailed);
  await settleUpload(upload.id);
}
