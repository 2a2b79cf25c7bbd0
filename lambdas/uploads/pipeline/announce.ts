import { sha256Hex } from '../../platform/ids';
import { signedDownloadUrl } from '../download-signer';
import { buildEvent } from '../../webhooks/events';
import { UPLOAD_COMPLETED, UPLOAD_FAILED } from '../upload-events';
import type { OutboxEntry } from '../../webhooks/outbox';
import { filteredSliceKey, LINK_SECONDS } from '../downloads';
import { keys, type UploadRecord } from '../upload';

// Event ids derive from the upload and its outcome, so a retried step re-emits the same event and
// receivers (and the delivery records) de-duplicate it.
const eventId = (upload: UploadRecord, what: string) => `evt_${sha256Hex(`${upload.id}:${what}`).slice(0, 32)}`;

/** The upload as its outcome's event shows it, in the state the event announces. */
function uploadData<S extends 'completed' | 'failed'>(upload: UploadRecord, status: S) {
  return {
    id: upload.id,
    source: upload.source,
    status,
    original_filename: upload.original_filename,
    valid_row_count: upload.valid_row_count,
    valid_number_count: upload.valid_number_count,
    invalid_row_count: upload.invalid_row_count,
    organization_id: upload.organization_id,
    created_at: upload.created_at,
  };
}

/**
 * upload.completed with signed links, each valid one hour from the state change. Written into the
 * outbox with the change; uploads synthesized from contacts announce nothing (their contacts do).
 */
export async function completedEntries(upload: UploadRecord): Promise<OutboxEntry[]> {
  if (upload.source === 'api_pool') return [];
  const base = upload.original_filename.replace(/\.csv$/i, '');
  const processed = await signedDownloadUrl(keys.processed(upload), LINK_SECONDS, `${base}_processed.csv`);
  const processedFiltered = await signedDownloadUrl(await filteredSliceKey(upload), LINK_SECONDS, `${base}_processed_filtered.csv`);
  const event = buildEvent(UPLOAD_COMPLETED, { upload: { ...uploadData(upload, 'completed'), downloads: { processed, processed_filtered: processedFiltered } } }, eventId(upload, 'completed'));
  return [{ organization_id: upload.organization_id, event }];
}

export function failedEntries(upload: UploadRecord): OutboxEntry[] {
  if (upload.source === 'api_pool') return [];
  const event = buildEvent(UPLOAD_FAILED, { upload: { ...uploadData(upload, 'failed'), downloads: null }, error_message: upload.error_message }, eventId(upload, 'failed'));
  return [{ organization_id: upload.organization_id, event }];
}
