import { nowIso } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import { assertReadyToCharge } from '../platform/charge-readiness';
import { newId, randomHex, sha256Hex } from '../platform/ids';
import { InsufficientCredits } from '../platform/domain-errors';
import { deleteObjects, filesBucket, putObject } from '../platform/blob';
import { debit, InsufficientCreditsError } from '../credits/credits';
import { buildEvent } from '../webhooks/events';
import { UPLOAD_CREATED } from './upload-events';
import { flushOutbox, outboxFields, type OutboxEntry } from '../webhooks/outbox';
import type { Principal } from '../auth/authenticate';
import { priceOf, type ColumnMapping, type Tier, type UploadPlan } from './plan';
import type { PlannedCsv } from './csv-planner';
import { readOriginal, type CsvSource } from './original-csv';
import { keys, type UploadRecord } from './upload';
import { deleteChargingUpload, getUpload, insertUpload, transitionUpload, uploadItemKey } from './upload-repository';
import type { WorkflowPorts } from './workflow';
import type { DeliveryPorts } from '../webhooks/delivery-queue-port';
import { counted } from '../platform/counted';

export interface CreateUploadInput {
  /**
   * The CSV bytes exactly as received (JSON-mode uploads are turned into a CSV first), or a staged
   * CSV, read as a stream (original-csv.ts).
   */
  csv: CsvSource;
  filename: string;
  mapping: ColumnMapping;
  tier: Tier;
  skipMobileLookup: boolean;
  /** `web`: confirmed in the console (lambdas/console/web-upload.ts). */
  source: 'api' | 'api_pool' | 'web';
}

export type { PlannedCsv } from './csv-planner';

const planOptions = (source: CreateUploadInput['source']) => ({ minimum: source === 'api_pool' ? 1 : undefined, firstCells: source === 'api_pool' });

export const plannedOf = (plan: UploadPlan): Omit<PlannedCsv, 'work' | 'layout'> => ({
  totalRows: plan.totalRows,
  validRowCount: plan.validRowCount,
  validNumberCount: plan.validNumberCount,
  invalidCount: plan.invalidCount,
  identity: plan.identity,
});

/**
 * `planned`: the CSV's plan when the caller already made it from these same bytes and mapping
 * (the console validates before confirming); otherwise it is made here.
 */
export async function createUpload(
  ports: WorkflowPorts,
  principal: Pick<Principal, 'organizationId' | 'userId'> & { apiKeyId: string | null },
  input: CreateUploadInput,
  uploadId = newId(),
  planned?: PlannedCsv,
): Promise<UploadRecord> {
  const original = await readOriginal(input.csv, input.mapping, planOptions(input.source), planned);
  planned = original.planned;
  // Before anything is stored or charged; pool uploads were paid per contact, which checked it.
  if (input.source !== 'api_pool') await assertReadyToCharge();
  const price = priceOf(planned.validNumberCount, input.tier);
  const at = nowIso();
  const record: UploadRecord = {
    id: uploadId,
    user_id: principal.userId,
    organization_id: principal.organizationId,
    original_filename: input.filename,
    file_size_bytes: original.size,
    status: 'charging',
    valid_row_count: planned.validRowCount,
    valid_number_count: planned.validNumberCount,
    invalid_row_count: planned.invalidCount,
    total_rows: planned.totalRows,
    credits_required: input.source === 'api_pool' ? 0 : price,
    credits_charged: null,
    credits_refunded: null,
    source: input.source,
    api_key_id: principal.apiKeyId,
    skip_mobile_lookup: input.skipMobileLookup,
    validation_tier: input.tier,
    identity_enabled: planned.identity,
    phone_columns: input.mapping.phoneColumns,
    name_columns: { full: input.mapping.fullNameColumn, first: input.mapping.firstNameColumn, last: input.mapping.lastNameColumn },
    result_summary: null,
    export_count: 0,
    last_exported_at: null,
    processed_available: false,
    error_message: null,
    exceeded_daily_limit: false,
    created_at: at,
    updated_at: at,
  };
  // File and (invisible) record first, then the charge, then visibility: a crash anywhere leaves at
  // most an invisible `charging` record, never a charge without an upload.
  // What the pipeline needs (numbers, names; record spans apart) is stored once here, so neither it nor
  // the downloads parse the original or normalize a number again (work-file.ts).
  const bucket = filesBucket();
  // Every write settled before the work file's and layout's Buffers go back to the pool
  // (create-buffers.ts): a put still sending them when another failed must not see them reused.
  const stored = await Promise.allSettled([
    original.store(keys.original(record)),
    putObject(bucket, keys.work(record), planned.work, 'application/octet-stream'),
    putObject(bucket, keys.layout(record), planned.layout, 'application/json'),
    insertUpload(record),
  ]);
  planned.release?.();
  for (const outcome of stored) if (outcome.status === 'rejected') throw outcome.reason;

  const amount = record.credits_required ?? 0;
  try {
    await debit(record.organization_id, `upload:${record.id}`, amount, { reason: `upload (${input.tier})`, resourceId: record.id });
  } catch (error) {
    if (error instanceof InsufficientCreditsError) {
      await discardUncharged(record);
      throw new InsufficientCredits(`Insufficient credits: this upload needs ${counted(amount, 'credit')} and the balance is ${error.available}`);
    }
    throw error;
  }
  crashPoint('upload.after-charge');
  const ready = await becomeReady(ports, record, amount);
  crashPoint('upload.after-ready');
  await ports.workflow(record.id);
  return ready;
}

/** The workflow must have taken a ready upload to `processing` by then, or recovery starts it again. */
export const READY_BOUND_MS = 5 * 60_000;

/**
 * `charging → ready_for_processing` after the charge, with `upload.created` in the same write
 * (published right after, or by the outbox drain after a crash). Uploads synthesized from
 * contacts announce nothing: their contacts' own events do (docs/contacts.md).
 */
export async function becomeReady(ports: DeliveryPorts, record: UploadRecord, amount: number): Promise<UploadRecord> {
  const at = nowIso();
  const key = uploadItemKey(record.id);
  const entries: OutboxEntry[] =
    record.source === 'api_pool'
      ? []
      : [
          {
            organization_id: record.organization_id,
            event: buildEvent(
              UPLOAD_CREATED,
              {
                upload: {
                  id: record.id,
                  source: record.source,
                  status: 'ready_for_processing',
                  original_filename: record.original_filename,
                  total_rows: record.total_rows,
                  valid_row_count: record.valid_row_count,
                  valid_number_count: record.valid_number_count,
                  organization_id: record.organization_id,
                  created_at: record.created_at,
                },
              },
              `evt_${sha256Hex(`${record.id}:created`).slice(0, 32)}`,
            ),
          },
        ];
  const staleAt = new Date(Date.parse(at) + READY_BOUND_MS).toISOString();
  const ready = await transitionUpload(record.id, ['charging'], 'ready_for_processing', { credits_charged: amount, ...outboxFields(key, entries, at) }, at, staleAt);
  if (ready && entries.length) await flushOutbox(ports, key);
  return ready ?? (await getUpload(record.id)) ?? record;
}

export const synthesizedFilename = (): string => `api_upload_${randomHex(8)}.csv`;

/**
 * A create that never charged (refused for credits, or abandoned before its charge: recovery)
 * leaves nothing: its files first, then its record, so that a crash between the two leaves the
 * record for recovery to finish. Without this a refused upload's list of names and numbers stayed
 * in the bucket (for good locally, until the uploads' expiry in AWS).
 */
export async function discardUncharged(record: Pick<UploadRecord, 'organization_id' | 'id'>): Promise<void> {
  await deleteObjects(filesBucket(), [keys.original(record), keys.work(record), keys.layout(record)]);
  crashPoint('upload.after-discard-files');
  await deleteChargingUpload(record.id);
}
