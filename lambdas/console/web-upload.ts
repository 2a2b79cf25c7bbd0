import { nowIso, nowMs } from '../platform/clock';
import { crashPoint } from '../platform/crash-point';
import { newId } from '../platform/ids';
import { Conflict, InvalidInput, isRefusal, Removed, TooFewNumbers, TooLarge } from '../platform/domain-errors';
import { statusOf } from '../platform/http/error-response';
import { filesBucket, getObject, presignGet, putObject } from '../platform/blob';
import { normalizeUsCa } from '../classification';
import { createUpload, plannedOf, type PlannedCsv } from '../uploads/create-upload';
import { readCsv } from '../uploads/csv-text';
import { layoutOf, hasUtf8Bom, serializeWork } from '../uploads/work-file';
import { MAX_PHONE_COLUMNS, MIN_NUMBERS, priceOf, type ColumnMapping, type Tier, type UploadPlan } from '../uploads/plan';
import { planUpload, planUploadInSteps } from '../uploads/plan-upload';
import { logger } from '../platform/logger';
import { MAX_CSV_BYTES, refuseUnsafeFilename } from '../uploads/request';
import { safeCsvCell } from '../uploads/csv';
import type { UploadRecord } from '../uploads/upload';
import type { WorkflowPorts } from '../uploads/workflow';
import type { ConsolePrincipal } from './principal';
import { readImport } from './import-file';
import { ownDraft } from './web-drafts';
import { getDraft, insertDraft, recordValidationProgress, transitionDraft, type InvalidCell, type WebDraft } from './web-upload-repository';

// The in-app upload flow (docs/console.md):
//   choose file -> pending_mapping -> (map) validating -> validation_failed | awaiting_confirmation
//   -> (confirm) the upload itself, created by the API's createUpload with the same id: charged
//   first, then ready_for_processing, upload.created, the workflow.
// Validation is the API's own planUpload over the same bytes, so the console can never accept what
// the API would refuse, nor price it differently.

const PREVIEW_ROWS = 5;
/**
 * Validation records its progress on the draft every this many rows: at most 25 writes for the
 * largest file (250,000 rows), none for one under 10,000 rows (which validates in a blink).
 */
export const VALIDATION_PROGRESS_ROWS = 10_000;
const INVALID_CELLS_KEPT = 100;
/**
 * How long a draft may stay `validating` or `confirming` before recovery counts it as interrupted
 * (web-upload-recovery.ts): longer than any request that moves it on (validating the largest file,
 * creating its upload) runs. Locally, a restart recovers every draft the last process left.
 */
export const DRAFT_BOUND_MS = 15 * 60_000;
const draftStaleAt = (): string => new Date(nowMs() + DRAFT_BOUND_MS).toISOString();
/**
 * A draft's files expire with the uploads' (the files bucket's `web-drafts` rule, the stage's
 * `retention.uploadsDays`): a list of names and numbers is not kept for good because nobody
 * confirmed or discarded it.
 */
const fileGone = () => new Removed("This draft's file is no longer kept (a draft's files are removed after the uploads' retention period); upload the file again");

export const originalKey = (d: Pick<WebDraft, 'organization_id' | 'id'>) => `web-drafts/${d.organization_id}/${d.id}.csv`;
const reportKey = (d: Pick<WebDraft, 'organization_id' | 'id'>) => `web-drafts/${d.organization_id}/${d.id}-report.csv`;
/** The bytes as sent, kept when the import converted them (import-format.ts). */
export const sourceKey = (d: Pick<WebDraft, 'organization_id' | 'id'>) => `web-drafts/${d.organization_id}/${d.id}-source`;
/** The plan validation made (createUpload's PlannedCsv) with its mapping: confirm does not parse the file again. */
const plannedKey = (d: Pick<WebDraft, 'organization_id' | 'id'>) => `web-drafts/${d.organization_id}/${d.id}-planned.json`;

const clean = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

export async function startWebUpload(principal: ConsolePrincipal, filename: string, sent: Buffer): Promise<WebDraft> {
  refuseUnsafeFilename(filename, 'The file name');
  if (sent.length === 0) throw new InvalidInput('The file is empty; it needs a header row and at least 100 numbers');
  if (sent.length > MAX_CSV_BYTES) throw new TooLarge(`The file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB; split it into smaller files`);
  // The forgiving import (import-file.ts): what follows reads the API's CSV made of what was sent.
  const { csv, format } = await readImport(sent);
  const layout = draftLayoutOf(csv);
  const at = nowIso();
  const draft: WebDraft = {
    id: newId(),
    organization_id: principal.organizationId,
    user_id: principal.userId,
    filename: safeFilename(filename),
    file_size_bytes: csv.length,
    ...(format.converted ? { sent_size_bytes: sent.length } : {}),
    status: 'pending_mapping',
    ...layout,
    mapping: null,
    validation: null,
    failure: null,
    invalid_cells: [],
    import: format,
    created_at: at,
    updated_at: at,
  };
  // The bytes as sent stay beside the converted file, so the person can have them read another way.
  if (format.converted) await putObject(filesBucket(), sourceKey(draft), sent, 'application/octet-stream');
  await putObject(filesBucket(), originalKey(draft), csv, 'text/csv');
  await insertDraft(draft);
  return draft;
}

/** What a draft shows of a CSV (the API's): columns, first rows, row count, suggested mapping. */
export function draftLayoutOf(csv: Buffer): Pick<WebDraft, 'header' | 'preview' | 'total_rows' | 'suggested'> {
  if (csv.length > MAX_CSV_BYTES) throw new TooLarge(`The file is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB once its text is converted for processing; split it into smaller files`);
  const [header, ...rows] = readCsv(csv).records;
  if (!header) throw new InvalidInput('The file is empty; it needs a header row and at least 100 numbers');
  const columns = header.fields.map((h) => h.trim());
  const preview = rows.slice(0, PREVIEW_ROWS).map((r) => r.fields.map(shownValue));
  // The draft is one table item (at most 400 KB): a header that alone approaches it cannot be shown
  // for mapping. Checked before the file is stored, so a refusal keeps nothing.
  if (Buffer.byteLength(JSON.stringify([columns, preview])) > MAX_SHOWN_LAYOUT_BYTES) {
    throw new InvalidInput(`The header row is too wide to map in the console (${columns.length} columns); keep only the columns you need, then upload it again`);
  }
  return { header: columns, preview, total_rows: rows.length, suggested: clean(suggestMapping(columns, rows.slice(0, 50).map((r) => r.fields))) };
}

/** Phone columns: named like one, or whose sample cells are mostly valid numbers; names by header. */
export function suggestMapping(header: string[], sample: string[][]): WebDraft['suggested'] {
  // A column the API could not map (a blank name, or one several columns share) is never suggested.
  const mappable = (h: string) => h !== '' && header.indexOf(h) === header.lastIndexOf(h);
  const byName = (re: RegExp) => header.find((h) => mappable(h) && re.test(h));
  const phone = header.filter((h, i) => {
    if (!mappable(h)) return false;
    if (/phone|mobile|cell|tel|number|fax/i.test(h)) return true;
    const cells = sample.map((r) => (r[i] ?? '').trim()).filter(Boolean);
    return cells.length > 0 && cells.filter((c) => normalizeUsCa(c)).length / cells.length >= 0.5;
  });
  const full = byName(/^(full[\s_-]?name|name|contact[\s_-]?name)$/i);
  const first = byName(/^first[\s_-]?name$|^given[\s_-]?name$|^first$/i);
  const last = byName(/^last[\s_-]?name$|^surname$|^family[\s_-]?name$|^last$/i);
  return {
    phone_columns: phone.slice(0, MAX_PHONE_COLUMNS),
    ...(full ? { full_name_column: full } : first && last ? { first_name_column: first, last_name_column: last } : {}),
  };
}

/**
 * pending_mapping | validation_failed | awaiting_confirmation -> validating -> validation_failed |
 * awaiting_confirmation. A mapping can be changed until the upload is confirmed.
 */
export async function mapWebUpload(principal: ConsolePrincipal, id: string, mapping: ColumnMapping): Promise<WebDraft> {
  const draft = await ownDraft(principal, id);
  if (mapping.phoneColumns.length === 0) throw new InvalidInput('Choose at least one phone column');
  if (mapping.phoneColumns.length > MAX_PHONE_COLUMNS) throw new InvalidInput(`At most ${MAX_PHONE_COLUMNS} phone columns`);
  if (Boolean(mapping.firstNameColumn) !== Boolean(mapping.lastNameColumn)) throw new InvalidInput('Choose both a first-name and a last-name column, or neither');
  if (mapping.fullNameColumn && mapping.firstNameColumn) throw new InvalidInput('Choose either a full-name column or first- and last-name columns, not both');
  // As the API refuses it (request.ts's resolveMapping): identity would compare each number with itself.
  const both = [mapping.fullNameColumn, mapping.firstNameColumn, mapping.lastNameColumn].find((c) => c && mapping.phoneColumns.includes(c));
  if (both) throw new InvalidInput(`The column '${both}' is chosen as a phone column and as a name; choose it as one or the other`);
  const started = await transitionDraft(draft.id, ['pending_mapping', 'validation_failed', 'awaiting_confirmation'], 'validating', { mapping: clean(mapping), failure: null, validation: null, validated_rows: 0 }, nowIso(), draftStaleAt());
  if (!started) throw new Conflict(`This upload is ${draft.status}; its mapping can no longer change`);
  crashPoint('draft.after-validating');
  try {
    return await validateDraft(draft, mapping);
  } catch (error) {
    // Whatever broke, the draft must not stay `validating` (the page would poll it forever and
    // every new mapping would be refused): it can be mapped again.
    await transitionDraft(draft.id, ['validating'], 'pending_mapping', { validated_rows: 0 }, nowIso()).catch((revert: unknown) =>
      logger.error('web upload: draft left validating', { upload_id: draft.id, error: String(revert) }),
    );
    throw error;
  }
}

async function validateDraft(draft: WebDraft, mapping: ColumnMapping): Promise<WebDraft> {
  const bytes = await getObject(filesBucket(), originalKey(draft));
  if (!bytes) throw fileGone();
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  const fields = rows.map((r) => r.fields);
  let plan: UploadPlan | null = null;
  let failure: WebDraft['failure'] = null;
  let rowsValidated = 0;
  // The page polls the draft while this request runs and shows validated_rows of total_rows.
  const progress = async (rowsDone: number) => {
    rowsValidated = rowsDone;
    try {
      await recordValidationProgress(draft.id, rowsDone, nowIso());
    } catch (error) {
      // Progress is for display only: a failed write never fails the validation.
      logger.warn('web upload: validation progress not recorded', { upload_id: draft.id, error: String(error) });
    }
  };
  try {
    plan = await planUploadInSteps(header!.fields, fields, mapping, { every: VALIDATION_PROGRESS_ROWS, progress });
  } catch (error) {
    if (!isRefusal(error)) throw error;
    // The console shows the status the API would have answered for the same file.
    failure = { status: statusOf(error), detail: error.detail };
    // Too few numbers still has rows to report on: the same rules without the minimum.
    if (error instanceof TooFewNumbers) plan = planUpload(header!.fields, fields, mapping, { minimum: 0 });
  }
  const invalid = plan ? invalidCells(plan, fields, header!.fields, mapping) : [];
  await putObject(filesBucket(), reportKey(draft), reportCsv(invalid, failure), 'text/csv');
  if (plan && !failure) {
    // What create stores of the file, from this parse: confirming does not parse it again.
    const layout = layoutOf(parsed);
    layout.bom ||= hasUtf8Bom(bytes);
    const planned: PlannedCsv = { ...plannedOf(plan), ...serializeWork({ rows: plan.rows, layout }, mapping.phoneColumns.length) };
    const saved: SavedPlan = { mapping: clean(mapping), planned: { ...planned, work: planned.work.toString('base64') }, work_encoding: 'base64' };
    await putObject(filesBucket(), plannedKey(draft), JSON.stringify(saved), 'application/json');
  }
  const validation = plan ? validationOf(plan) : null;
  const validated = await transitionDraft(
    draft.id,
    ['validating'],
    failure ? 'validation_failed' : 'awaiting_confirmation',
    // Every row was checked unless a row itself was refused (too many fields): then as far as it got.
    { failure: failure ? clean(failure) : null, validation, invalid_cells: invalid.slice(0, INVALID_CELLS_KEPT).map(shownCell), validated_rows: plan ? fields.length : rowsValidated },
    nowIso(),
  );
  // The write answers with the draft as it left it: no second read.
  return validated ?? (await getDraft(draft.id))!;
}

function validationOf(plan: UploadPlan) {
  let cells = 0;
  for (const row of plan.rows) for (const n of row.numbers) if (n) cells++;
  return {
    total_rows: plan.totalRows,
    valid_row_count: plan.validRowCount,
    valid_number_count: plan.validNumberCount,
    invalid_count: plan.invalidCount,
    duplicate_count: cells - plan.validNumberCount,
    identity: plan.identity,
    price: { standard: priceOf(plan.validNumberCount, 'standard'), max: priceOf(plan.validNumberCount, 'max') },
  };
}

function invalidCells(plan: UploadPlan, rows: string[][], header: string[], mapping: ColumnMapping): InvalidCell[] {
  const idx = mapping.phoneColumns.map((c) => header.findIndex((h) => h.trim() === c));
  const out: InvalidCell[] = [];
  plan.rows.forEach((row, r) => {
    row.numbers.forEach((n, c) => {
      if (n === null) out.push({ row: r + 2, column: mapping.phoneColumns[c]!, value: rows[r]![idx[c]!] ?? '', reason: 'not a valid US/CA phone number' });
    });
  });
  return out;
}

/**
 * A cell as the page shows it, its value cut to SHOWN_VALUE_CHARS: the draft is one table item
 * (400 KB at most in DynamoDB) and a cell can be megabytes. The report keeps every value whole.
 */
const SHOWN_VALUE_CHARS = 200;
const MAX_SHOWN_LAYOUT_BYTES = 200_000;
const shownValue = (value: string): string => (value.length > SHOWN_VALUE_CHARS ? `${value.slice(0, SHOWN_VALUE_CHARS)}… (${value.length} characters)` : value);
const shownCell = (cell: InvalidCell): InvalidCell => ({ ...cell, value: shownValue(cell.value) });

/**
 * The report is the service's own file, opened in spreadsheets by the people fixing their list: every
 * cell is written safe (OWASP: a cell a spreadsheet would run gets a leading quote), the customer's
 * values included, unlike the processed file, which keeps them exactly unless asked.
 */
function reportCsv(cells: InvalidCell[], failure: WebDraft['failure']): string {
  const line = (values: string[]) => values.map(safeCsvCell).join(',');
  const lines = [line(['row', 'column', 'value', 'reason'])];
  if (failure) lines.push(line(['', '', '', typeof failure.detail === 'string' ? failure.detail : String((failure.detail as { message?: unknown }).message ?? JSON.stringify(failure.detail))]));
  for (const c of cells) lines.push(line([String(c.row), c.column, c.value, c.reason]));
  return lines.join('\r\n') + '\r\n';
}

export async function reportLink(principal: ConsolePrincipal, id: string): Promise<{ url: string }> {
  const draft = await ownDraft(principal, id);
  // Every validated draft has one, also once confirmed (the report stays with the upload it became).
  if (!['validation_failed', 'awaiting_confirmation', 'confirming', 'confirmed'].includes(draft.status)) throw new Conflict('No validation report yet: map the columns first');
  const name = draft.filename.replace(/\.csv$/i, '') + '_validation.csv';
  return { url: await presignGet(filesBucket(), reportKey(draft), 3600, `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"`) };
}

/**
 * awaiting_confirmation -> confirming -> the upload (same id), charged before it is visible, exactly
 * as POST /api/v1/uploads does it (the route requires an active subscription, as the API's does).
 * Refused for lack of credits (402), the draft is awaiting_confirmation again and nothing was charged.
 */
export async function confirmWebUpload(ports: WorkflowPorts, principal: ConsolePrincipal, id: string, tier: Tier, skipMobileLookup: boolean, expectedCredits: number, expectedMapping?: ColumnMapping): Promise<UploadRecord> {
  const seen = await ownDraft(principal, id);
  // The draft as confirming left it: a remap between the page's read and this write is in it.
  const draft = await transitionDraft(seen.id, ['awaiting_confirmation'], 'confirming', {}, nowIso(), draftStaleAt());
  if (!draft) throw new Conflict(notConfirmable((await getDraft(seen.id)) ?? seen));
  crashPoint('draft.after-confirming');
  // The price the person agreed to is the one charged, or nothing is: the mapping may have been
  // changed (another tab, a colleague) after the page showed its price.
  const price = draft.validation?.price[tier];
  // The same for the columns: another tab may have validated other ones at the same price (a name
  // column swapped), and the upload would be made from a mapping this page never showed.
  if (expectedMapping && !(draft.mapping && sameMapping(cleanMapping(expectedMapping), cleanMapping(draft.mapping)))) {
    await transitionDraft(draft.id, ['confirming'], 'awaiting_confirmation', {}, nowIso());
    throw new Conflict('The mapping changed since it was shown (validated again in another tab or by a colleague); review it and confirm again');
  }
  if (price !== expectedCredits) {
    await transitionDraft(draft.id, ['confirming'], 'awaiting_confirmation', {}, nowIso());
    throw new Conflict(`The price changed since it was shown: ${tier} now costs ${price ?? 'an unknown number of'} credits, not ${expectedCredits} (the mapping was changed); review it and confirm again`);
  }
  const [csv, stored] = await Promise.all([getObject(filesBucket(), originalKey(draft)), getObject(filesBucket(), plannedKey(draft))]);
  if (!csv) {
    await transitionDraft(draft.id, ['confirming'], 'awaiting_confirmation', {}, nowIso());
    throw fileGone();
  }
  // The plan validation made for this mapping; a draft validated before it was kept is planned again.
  const saved = stored ? (JSON.parse(stored.toString('utf8')) as SavedPlan) : null;
  const planned = saved && sameMapping(saved.mapping, draft.mapping!) ? plannedOfSaved(saved) : undefined;
  try {
    const upload = await createUpload(
      ports,
      { organizationId: principal.organizationId, userId: principal.userId, apiKeyId: null },
      { csv, filename: draft.filename, mapping: draft.mapping!, tier, skipMobileLookup, source: 'web' },
      draft.id,
      planned,
    );
    crashPoint('draft.after-upload');
    await transitionDraft(draft.id, ['confirming'], 'confirmed', {}, nowIso());
    return upload;
  } catch (error) {
    if (isRefusal(error)) await transitionDraft(draft.id, ['confirming'], 'awaiting_confirmation', {}, nowIso());
    throw error;
  }
}

/**
 * Why a confirm found no draft awaiting confirmation, from the draft as it is after that write (the
 * read before it may still say awaiting_confirmation: another confirmation won the write between).
 */
function notConfirmable(now: WebDraft): string {
  if (now.status === 'confirming' || now.status === 'confirmed') return `This upload was already confirmed elsewhere (another tab or a colleague; it is ${now.status}); it was charged once, not again`;
  if (now.status === 'awaiting_confirmation') return 'Another confirmation of this upload was under way and was refused meanwhile; nothing was charged: review it and confirm again';
  return `This upload is ${now.status.replaceAll('_', ' ')}; only an upload awaiting confirmation can be confirmed`;
}

/**
 * The plan validation made, kept for confirming. Its work file is bytes (work-file-v3.ts), kept as
 * base64; a plan saved before (`work_encoding` absent) holds a version 2 work file's text, still read.
 */
interface SavedPlan {
  mapping: ColumnMapping;
  planned: PlannedCsv & { work: string };
  work_encoding?: 'base64';
}

const plannedOfSaved = (saved: SavedPlan): PlannedCsv =>
  saved.work_encoding === 'base64' ? { ...saved.planned, work: Buffer.from(saved.planned.work, 'base64') } : saved.planned;

/** A mapping with its absent name columns as undefined (a request may say null or ''). */
const cleanMapping = (m: ColumnMapping): ColumnMapping => ({
  phoneColumns: m.phoneColumns,
  fullNameColumn: m.fullNameColumn || undefined,
  firstNameColumn: m.firstNameColumn || undefined,
  lastNameColumn: m.lastNameColumn || undefined,
});

const sameMapping = (a: ColumnMapping, b: ColumnMapping): boolean =>
  a.phoneColumns.join('\u0000') === b.phoneColumns.join('\u0000') && a.fullNameColumn === b.fullNameColumn && a.firstNameColumn === b.firstNameColumn && a.lastNameColumn === b.lastNameColumn;

function safeFilename(name: string): string {
  // Kept whole (the route bounds it at 255 characters, as the API does): a cut lost the extension
  // and could split a surrogate pair, storing a name no strict JSON reader takes.
  const base = name.split(/[\\/]/).pop()!.trim();
  return base || 'web_upload.csv';
}

export { MIN_NUMBERS };
