import { csvLine } from './csv';
import { createUpload } from './create-upload';
import { getUpload } from './upload-repository';
import type { UploadRecord } from './upload';
import type { UploadPorts } from './workflow';

export interface PoolRow {
  contact_id: string;
  phone: string;
  full_name?: string;
  first_name?: string;
  last_name?: string;
}

/**
 * An `api_pool` upload from queued single contacts: the same pipeline, no charge (each contact
 * was charged when created), no minimum size. Idempotent per upload id: called again for an
 * upload that exists, it only makes sure its workflow runs.
 */
export async function createPoolUpload(ports: UploadPorts, input: { organizationId: string; uploadId: string; tier: 'standard' | 'max'; skipMobileLookup: boolean; rows: PoolRow[] }): Promise<UploadRecord> {
  const existing = await getUpload(input.uploadId);
  if (existing) {
    if (existing.status === 'ready_for_processing' || existing.status === 'processing') await ports.workflow(existing.id);
    return existing;
  }
  const full = input.rows.some((r) => r.full_name);
  const split = input.rows.some((r) => r.first_name && r.last_name);
  const header = ['contact_id', 'phone', ...(full ? ['full_name'] : []), ...(split ? ['first_name', 'last_name'] : [])];
  const lines = [
    csvLine(header),
    ...input.rows.map((r) => csvLine([r.contact_id, r.phone, ...(full ? [r.full_name ?? ''] : []), ...(split ? [r.first_name ?? '', r.last_name ?? ''] : [])])),
  ];
  return createUpload(
    ports,
    { organizationId: input.organizationId, userId: '00000000-0000-0000-0000-000000000000', apiKeyId: 'contacts-pool' },
    {
      csv: Buffer.from(lines.join('\n') + '\n'),
      filename: `api_pool_${input.uploadId}.csv`,
      mapping: { phoneColumns: ['phone'], fullNameColumn: full ? 'full_name' : undefined, firstNameColumn: !full && split ? 'first_name' : undefined, lastNameColumn: !full && split ? 'last_name' : undefined },
      tier: input.tier,
      skipMobileLookup: input.skipMobileLookup,
      source: 'api_pool',
    },
    input.uploadId,
  );
}
