import { sha256Hex } from '../../platform/ids';
import { signedDownloadUrl } from '../download-signer';
import { emitEvent } from '../../events/events';
import { filteredSliceKey, LINK_SECONDS } from '../downloads';
import { keys, type UploadRecord } from '../upload';

// Event ids derive from the upload and its outcome, so a retried step re-emits the same event and
// receivers (and the delivery records) de-duplicate it.
const eventId = (upload: UploadRecord, what: string) => `evt_${sha256Hex(`${upload.id}:${what}`).slice(0, 32)}`;

function uploadData(upload: UploadRecord) {
  return {
    id: upload.id,
    source: upload.source,
    status: upload.status,
    original_filename: upload.original_filename,
    valid_row_count: upload.valid_row_count,
    valid_number_count: upload.valid_number_count,
    invalid_row_count: upload.invalid_row_count,
    organization_id: upload.organization_id,
    created_at: upload.created_at,
  };
}

/** upload.completed with signed links, each valid one hour from the event. */
export async function announceCompleted(upload: UploadRecord): Promise<void> {
  const base = upload.original_filename.replace(/\.csv$/i, '');
  const processed = await signedDownloadUrl(keys.processed(upload), LINK_SECONDS, `${base}_processed.csv`);
  const processedFiltered = await signedDownloadUrl(await filteredSliceKey(upload), LINK_SECONDS, `${base}_processed_filtered.csv`);
  await emitEvent({
    organizationId: upload.organization_id,
    type: 'upload.completed',
    id: eventId(upload, 'completed'),
    data: { upload: { ...uploadData(upload), downloads: { processed, processed_filtered: processedFiltered } } },
  });
}

export async function announceFailed(upload: UploadRecord): Promise<void> {
  await emitEvent({
    organizationId: upload.organization_id,
    type: 'upload.failed',
    id: eventId(upload, 'failed'),
    data: { upload: { ...uploadData(upload), downloads: null }, error_message: upload.error_message },
  });
}
