import { DeleteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import { db, conditionalWrite, setClause, tableName, updateItem, updateReturning, putItem, IF_NEW, queryItems } from '../platform/table';
import type { ColumnMapping } from '../uploads/plan';
import * as z from '../platform/zod';
import { readEntity, readExisting } from '../platform/table-read';
import { claimStale } from '../platform/index-claim';
import type { ImportFormat } from './import-format';

// The in-app flow's steps before an upload exists (docs/console.md): one item per web upload, keyed
// by the id the upload will have once confirmed. Drafts are not uploads: GET /api/v1/uploads never
// lists them, and nothing is charged until confirmation turns one into an upload.

export type DraftStatus = 'pending_mapping' | 'validating' | 'validation_failed' | 'awaiting_confirmation' | 'confirming' | 'confirmed';

export interface InvalidCell {
  row: number;
  column: string;
  value: string;
  reason: string;
}

export interface DraftValidation {
  total_rows: number;
  valid_row_count: number;
  valid_number_count: number;
  invalid_count: number;
  duplicate_count: number;
  identity: boolean;
  price: { standard: number; max: number };
}

export interface WebDraft {
  id: string;
  organization_id: string;
  user_id: string;
  filename: string;
  /** The CSV's size: the file itself, or what the console converted it to. */
  file_size_bytes: number;
  /** The file's size as sent, when the console converted it (a workbook, another delimiter or encoding). */
  sent_size_bytes?: number | null;
  status: DraftStatus;
  header: string[];
  preview: string[][];
  total_rows: number;
  /**
   * How many of total_rows validation has checked: 0 when it starts, raised every
   * VALIDATION_PROGRESS_ROWS rows while it runs, total_rows when it ends. Absent on drafts never
   * validated (and on drafts from before it was kept).
   */
  validated_rows?: number;
  suggested: { phone_columns: string[]; full_name_column?: string; first_name_column?: string; last_name_column?: string };
  mapping: ColumnMapping | null;
  validation: DraftValidation | null;
  /** Why validation failed: the API's own error detail for the same file and mapping. */
  failure: { status: number; detail: unknown } | null;
  /** The first invalid cells (all of them are in the downloadable report). */
  invalid_cells: InvalidCell[];
  /** How the console read the file (import-format.ts); absent on drafts from before it did. */
  import?: ImportFormat;
  created_at: string;
  updated_at: string;
}

const optionalName = z.optional(z.string());
const draftSchema: z.ZodMiniType<WebDraft> = z.lazySchema(() => z.looseObject({
  id: z.string(),
  organization_id: z.string(),
  user_id: z.string(),
  filename: z.string(),
  file_size_bytes: z.number(),
  sent_size_bytes: z.optional(z.nullable(z.number())),
  status: z.enum(['pending_mapping', 'validating', 'validation_failed', 'awaiting_confirmation', 'confirming', 'confirmed']),
  header: z.array(z.string()),
  preview: z.array(z.array(z.string())),
  total_rows: z.number(),
  validated_rows: z.optional(z.number().check(z.int(), z.gte(0))),
  suggested: z.looseObject({ phone_columns: z.array(z.string()), full_name_column: optionalName, first_name_column: optionalName, last_name_column: optionalName }),
  mapping: z.nullable(z.looseObject({ phoneColumns: z.array(z.string()), fullNameColumn: optionalName, firstNameColumn: optionalName, lastNameColumn: optionalName })),
  validation: z.nullable(z
    .looseObject({
      total_rows: z.number(),
      valid_row_count: z.number(),
      valid_number_count: z.number(),
      invalid_count: z.number(),
      duplicate_count: z.number(),
      identity: z.boolean(),
      price: z.looseObject({ standard: z.number(), max: z.number() }),
    })),
  failure: z.nullable(z.looseObject({ status: z.number(), detail: z.unknown() })),
  invalid_cells: z.array(z.looseObject({ row: z.number(), column: z.string(), value: z.string(), reason: z.string() })),
  created_at: z.string(),
  updated_at: z.string(),
}));

const draftKey = (id: string) => ({ pk: `WEBUPLOAD#${id}`, sk: 'META' });

export async function insertDraft(draft: WebDraft): Promise<void> {
  await putItem('WebUploadDraft', { ...draftKey(draft.id), gsi1pk: `ORG#${draft.organization_id}#WEBUPLOADS`, gsi1sk: `${draft.created_at}#${draft.id}`, ...draft }, IF_NEW);
}

export async function getDraft(id: string): Promise<WebDraft | null> {
  const out = await db().send(new GetCommand({ TableName: tableName(), Key: draftKey(id), ConsistentRead: true }));
  return readEntity('WebUploadDraft', draftSchema, out.Item);
}

/**
 * A draft in a passing state (`validating`, `confirming`) is listed on gsi3 for recovery, with the
 * time after which it counts as interrupted (`DRAFT_BOUND_MS`, web-upload-recovery.ts); every other
 * state leaves the list.
 */
const RECOVERY_PK = 'RECOVER#WebUploadDraft';
export const PASSING: readonly DraftStatus[] = ['validating', 'confirming'];

/**
 * Moves a draft on only from one of `from`: of two requests racing, one wins. The draft as moved;
 * null when it lost. Into a passing state, `staleAt` is when recovery may take it.
 */
export async function transitionDraft(id: string, from: DraftStatus[], to: DraftStatus, fields: Partial<WebDraft>, at: string, staleAt?: string): Promise<WebDraft | null> {
  const watch = PASSING.includes(to) && staleAt ? { gsi3pk: RECOVERY_PK, gsi3sk: `${staleAt}#${id}` } : {};
  const { sets, names, values } = setClause({ ...fields, ...watch, status: to, updated_at: at });
  const allowed = from.map((_, i) => `:from${i}`);
  const item = await updateReturning({
    Key: draftKey(id),
    UpdateExpression: `SET ${sets.join(', ')}${PASSING.includes(to) && staleAt ? '' : ' REMOVE gsi3pk, gsi3sk'}`,
    ConditionExpression: `attribute_exists(pk) AND #status_now IN (${allowed.join(', ')})`,
    ExpressionAttributeNames: { ...names, '#status_now': 'status' },
    ExpressionAttributeValues: { ...values, ...Object.fromEntries(from.map((s, i) => [`:from${i}`, s])) },
  });
  return item ? readExisting('WebUploadDraft', draftSchema, item) : null;
}

/**
 * Drafts left in a passing state past their stale time (with `changedBeforeIso`, every one last
 * changed before then: a restart), each claimed for `leaseMs` by moving its stale time in a write
 * conditioned on the draft item itself (re-read strongly consistent, never the index copy).
 */
export function claimStaleDrafts(nowMs: number, leaseMs: number, changedBeforeIso?: string): Promise<WebDraft[]> {
  return claimStale({ index: 'gsi3', partition: RECOVERY_PK, nowMs, leaseMs, changed: 'updated_at', before: changedBeforeIso, max: 200 }, {
    keyOf: (item) => ({ key: draftKey(String(item.id)), id: String(item.id) }),
    qualifies: (current) => PASSING.includes(current.status as DraftStatus),
    read: (base) => readExisting('WebUploadDraft', draftSchema, base),
  });
}

/**
 * Raises validated_rows while the draft is validating; false once it no longer is (validation ended
 * elsewhere, or the draft went on). Never lowers it, so a late write cannot move the bar back.
 */
export async function recordValidationProgress(id: string, validatedRows: number, at: string): Promise<boolean> {
  return updateItem({
    Key: draftKey(id),
    UpdateExpression: 'SET validated_rows = :n, updated_at = :at',
    ConditionExpression: 'attribute_exists(pk) AND #status = :validating AND (attribute_not_exists(validated_rows) OR validated_rows < :n)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':n': validatedRows, ':at': at, ':validating': 'validating' },
  });
}

/** Drafts not yet confirmed, newest first. */
export async function listOpenDrafts(orgId: string, limit = 50): Promise<WebDraft[]> {
  const drafts: WebDraft[] = [];
  // The newest `limit` drafts, of which the confirmed ones are no longer open.
  for await (const item of queryItems({ IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': `ORG#${orgId}#WEBUPLOADS` }, ScanIndexForward: false }, limit)) {
    if (item.status !== 'confirmed') drafts.push(readExisting('WebUploadDraft', draftSchema, item));
  }
  return drafts;
}

/** Removes a draft still in one of `from` (of a discard and a confirm racing, one wins); false when it was not. */
export async function deleteDraft(id: string, from: DraftStatus[]): Promise<boolean> {
  return conditionalWrite(() =>
    db().send(
      new DeleteCommand({
        TableName: tableName(),
        Key: draftKey(id),
        ConditionExpression: `attribute_exists(pk) AND #status IN (${from.map((_, i) => `:from${i}`).join(', ')})`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: Object.fromEntries(from.map((s, i) => [`:from${i}`, s])),
      }),
    ),
  );
}
