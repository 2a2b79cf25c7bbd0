import { sha256Hex } from '../../platform/ids';
import { signedDownloadUrl } from '../download-signer';
import { buildEvent } from '../../webhooks/events';
import type { OutboxEntry } from '../../webhooks/outbox';
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

/**
 * upload.completed with signed links, each valid one hour from the state change. Written into the
 * outbox with the change; uploads synthesized from contacts announce nothing (their contacts do).
 */
export async function completedEntries(upload: UploadRecord): Promise<OutboxEntry[]> {
  if (upload.source === 'api_pool') return [];
  const base = upload.original_filename.replace(/\.csv$/i, '');
  const processed = await signedDownloadUrl(keys.processed(upload), LINK_SECONDS, `${base}_processed.csv`);
  const processedFiltered = await signedDownloadUrl(await filteredSliceKey(upload), LINK_SECONDS, `${base}_processed_filtered.csv`);
  const event = buildEvent({
    type: 'upload.completed',
    id: eventId(upload, 'completed'),
    data: { upload: { ...uploadData(upload), downloads: { processed, processed_filtered: processedFiltered } } },
  });
  return [{ organization_id: upload.organization_id, event }];
}

export function failedEntries(upload: UploadRecord): OutboxEntry[] {
  if (upload.source === 'api_pool') return [];
  const event = buildEvent({
    type: 'upload.failed',
    id: eventId(upload, 'failed'),
    data: { upload: { ...uploadData(upload), downloads: null }, error_message: upload.error_message },
  });
  return [{ organization_id: upload.organization_id, event }];
}
