import { filesBucket, getObject } from '../platform/blob';
import { csvLine, parseCsv } from './csv';
import { createUpload } from './create-upload';
import { parseResults, type ResultRows } from './results';
import { deleteChargingUpload, getUpload } from './upload-repository';

export { getUpload, settleUpload } from './upload-repository';
export type { UploadRecord } from './upload';
export type { WorkflowPorts } from './workflow';
import { keys, type UploadRecord } from './upload';
import { readFirstCells } from './work-file';
import type { WorkflowPorts } from './workflow';

// The uploads feature's public module for the contacts feature, the only one contacts imports
// (lint): creating an `api_pool` upload from queued contacts, and reading back, once it has ended,
// which contact each row was and what the row became. Uploads never calls contacts: the pool's
// outcome is the workflow's NotifyPool step (contacts/pool-step.ts).

export interface PoolRow {
  contact_id: string;
  phone: string;
  full_name?: string;
  first_name?: string;
  last_name?: string;
}

export interface PoolUploadInput {
  organizationId: string;
  uploadId: string;
  tier: 'standard' | 'max';
  skipMobileLookup: boolean;
  rows: PoolRow[];
}

/**
 * The `user_id` of every `api_pool` upload: the spec makes it a UUID, never null, and a pool groups
 * contacts that several keys and users created, so it names no one (the nil UUID). Its `api_key_id`
 * is null for the same reason (docs/contacts.md).
 */
export const POOL_USER_ID = '00000000-0000-0000-0000-000000000000';

/**
 * An `api_pool` upload from queued single contacts: the same pipeline, no charge (each contact
 * was charged when created), no minimum size. Idempotent per upload id: called again for an
 * upload past `charging`, it only makes sure its workflow runs. Returns only once the upload is
 * past `charging`: the pool takes its contacts off the queue then, and recovery removes a
 * `charging` upload that has no charge, which a pool upload never has (docs/reliability.md).
 */
export async function createPoolUpload(ports: WorkflowPorts, input: PoolUploadInput): Promise<UploadRecord> {
  const existing = await getUpload(input.uploadId);
  if (existing && existing.status !== 'charging') {
    if (existing.status === 'ready_for_processing' || existing.status === 'processing') await ports.workflow(existing.id);
    return existing;
  }
  // A create killed before the upload became ready (its files may be missing): made again whole.
  if (existing) await deleteChargingUpload(existing.id);
  const created = await createUploadFromRows(ports, input);
  if (created.status === 'charging') throw new Error(`pool upload ${input.uploadId} is still charging (removed by recovery meanwhile?): its contacts stay queued for the next run`);
  return created;
}

function createUploadFromRows(ports: WorkflowPorts, input: PoolUploadInput): Promise<UploadRecord> {
  const full = input.rows.some((r) => r.full_name);
  const split = input.rows.some((r) => r.first_name && r.last_name);
  // An upload maps one kind of name. A batch holding both kinds maps full names, and a contact's
  // first and last become "Last, First", which identity splits back at the comma into the same
  // first and last (a space between them would move a last name of several words into the first).
  const nameOf = (r: PoolRow): string => r.full_name || (r.first_name && r.last_name ? (r.last_name.includes(',') ? `${r.first_name} ${r.last_name}` : `${r.last_name}, ${r.first_name}`) : '');
  const header = ['contact_id', 'phone', ...(full ? ['full_name'] : split ? ['first_name', 'last_name'] : [])];
  const lines = [
    csvLine(header),
    ...input.rows.map((r) => csvLine([r.contact_id, r.phone, ...(full ? [nameOf(r)] : split ? [r.first_name ?? '', r.last_name ?? ''] : [])])),
  ];
  return createUpload(
    ports,
    { organizationId: input.organizationId, userId: POOL_USER_ID, apiKeyId: null },
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

/** The pooled contacts' ids, one per row: contact_id is the pool file's first column. */
export async function poolContactIds(upload: UploadRecord): Promise<string[]> {
  const stored = await getObject(filesBucket(), keys.work(upload));
  if (stored) {
    const ids = readFirstCells(stored);
    if (ids) return ids;
  }
  const original = await getObject(filesBucket(), keys.original(upload));
  if (!original) return [];
  const [, ...rows] = parseCsv(original.toString('utf8')).records;
  return rows.map((r) => r.fields[0] ?? '');
}

/** Which contacts of a completed pool upload the provider could not look up: by contact id, or (a list an earlier version wrote) by number. */
export interface PoolLookupFailures {
  contactIds: ReadonlySet<string>;
  numbers: ReadonlySet<string>;
}

export const noPoolLookupFailures: PoolLookupFailures = { contactIds: new Set(), numbers: new Set() };

/** The pool's failed lookups as Finalize wrote them (finalize.ts): `{rows}`, the pool's rows; an array of E.164s before that. */
export async function poolLookupFailures(upload: UploadRecord, contactIds: readonly string[]): Promise<PoolLookupFailures> {
  const stored = await getObject(filesBucket(), keys.lookupFailures(upload));
  if (!stored) return noPoolLookupFailures;
  const list = JSON.parse(stored.toString('utf8')) as string[] | { rows: number[] };
  if (Array.isArray(list)) return { contactIds: new Set(), numbers: new Set(list) };
  return { contactIds: new Set(list.rows.flatMap((row) => (contactIds[row] ? [contactIds[row]] : []))), numbers: new Set() };
}

/** A completed upload's row results, in row order (empty when none were written). */
export async function poolRowResults(upload: UploadRecord): Promise<ResultRows> {
  const stored = await getObject(filesBucket(), keys.results(upload));
  return stored ? parseResults(stored) : [];
}
