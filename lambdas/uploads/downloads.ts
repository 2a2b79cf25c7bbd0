import { Conflict, InvalidInput, Removed } from '../platform/domain-errors';
import { nowIso, nowMs } from '../platform/clock';
import { config } from '../platform/config';
import { logger } from '../platform/logger';
import { sha256Hex } from '../platform/ids';
import { filesBucket, getObject, getObjectRange, isMissingObject, objectExists, objectWriter, PART_BYTES, putObject, type ObjectWriter } from '../platform/blob';
import { signedDownloadLink } from './download-signer';
import { streamTogether, writeProcessedBytes, type PartTarget, type ProcessedSource, type SliceOptions } from './processed-file';
import { loadLayout } from './layout-source';
import { ByteSink } from './byte-sink';
import { assembleSlice, byteRanges, sliceLines, storedAs } from './slice-assembly';
import { buildSliceIndex, parseSliceIndex, processedLines, serializeSliceIndex, type NeutralLines, type SliceIndex } from './slice-index';
import { sliceIndexMemo } from './slice-index-cache';
import { neutralLinesFromBase } from './slice-neutral';
import { parseResults, vocabularyFor } from './results';
import { keys, type UploadRecord } from './upload';
import { recordExport } from './upload-repository';
import { expiredDetail, lostDetail, pastRetention, type StoredFile } from './missing-file';

/** Spec: a download link is valid for one hour, then answers 403. */
export const LINK_SECONDS = 3600;

export interface DownloadLink {
  url: string;
  expires_at: number;
}

/** The fixed slice of the deprecated processed-filtered download: contacts likely to pick up. */
const REACHABLE = {
  answer_intent: ['Likely Answer', 'Likely Call Screening'],
  identity: ['1 - Likely Right-Party Answer', '2 - Likely Answer', '3 - Likely Right-Party Call Screening', '4 - Likely Call Screening'],
};

async function link(key: string, filename: string): Promise<DownloadLink> {
  const { url, expiresAt } = await signedDownloadLink(key, LINK_SECONDS, filename);
  return { url, expires_at: expiresAt };
}

export async function originalLink(upload: UploadRecord, filename = originalDownloadName(upload)): Promise<DownloadLink> {
  const key = keys.original(upload);
  await requireStored(upload, key, 'original');
  return link(key, filename);
}

/**
 * The name the original downloads under. It is always CSV; a console upload keeps the name of the
 * file the person chose, which the console may have converted (an Excel workbook, a tab-separated
 * .txt): its original downloads as a .csv, not as CSV text named calls.xlsx.
 */
export function originalDownloadName(upload: Pick<UploadRecord, 'source' | 'original_filename'>): string {
  const name = upload.original_filename;
  if (upload.source !== 'web' || /\.csv$/i.test(name)) return name;
  return `${name.replace(/\.[^./\\]{1,10}$/, '')}.csv`;
}

/** A link to another stored file of the upload (the console's file as it was sent), checked as the original is. */
export async function storedFileLink(upload: UploadRecord, key: string, filename: string): Promise<DownloadLink> {
  await requireStored(upload, key, 'original');
  return link(key, filename);
}

/**
 * No link to an object that is not there: one HEAD on the object about to be linked. There is no
 * cheaper signal that holds on both runtimes: the upload's item says what was written, not what
 * is still stored (a retention expiry, a hand delete, the local store's quarantine of a damaged
 * object at start all happen beside it), and a mark set by the local quarantine would miss every
 * AWS cause. A download is one request among few per upload, and a HEAD is one small round trip.
 */
async function requireStored(upload: UploadRecord, key: string, file: StoredFile): Promise<void> {
  if (!(await objectExists(filesBucket(), key))) throw storedFileGone(upload, key, file);
}

/** The refusal of a download whose file is not in the store; an ERROR line when it should have been. */
function storedFileGone(upload: UploadRecord, key: string, file: StoredFile): Removed {
  const retentionDays = config().UPLOADS_RETENTION_DAYS;
  const fields = { upload_id: upload.id, organization_id: upload.organization_id, file, bucket: filesBucket(), key, upload_created_at: upload.created_at };
  if (pastRetention(upload.created_at, nowMs(), retentionDays)) {
    logger.info('upload file expired by retention', { ...fields, retention_days: retentionDays });
    return new Removed(expiredDetail(retentionDays));
  }
  logger.error('upload file missing from storage', fields);
  return new Removed(lostDetail(file));
}

/** Parses the `statuses` filter against the vocabulary the upload's result_summary.format selects. */
export function parseStatuses(raw: string | undefined, identity: boolean): Set<string> | undefined {
  if (raw === undefined) return undefined;
  const vocabulary = vocabularyFor(identity);
  const values = raw.split(',').map((s) => s.trim()).filter(Boolean);
  if (values.length === 0) throw new InvalidInput(`statuses is empty; valid values: ${vocabulary.join(', ')}`);
  const unknown = values.filter((v) => !vocabulary.includes(v));
  if (unknown.length) throw new InvalidInput(`Unrecognized status ${unknown.map((u) => `'${u}'`).join(', ')}; valid values for this upload: ${vocabulary.join(', ')}`);
  return new Set(values);
}

export interface ProcessedQuery {
  statuses?: string;
  include_identity?: 'true' | 'false';
  sort?: 'best_status' | 'original';
  neutralize_formulas?: 'true' | 'false';
}

/** `filename`: the name the file downloads under (the console names each slice after what it holds); the API's is `{base}_processed.csv`. */
export async function processedLink(upload: UploadRecord, query: ProcessedQuery, filename?: string): Promise<DownloadLink> {
  requireCompleted(upload);
  const base = upload.original_filename.replace(/\.csv$/i, '');
  const options: SliceOptions = {
    statuses: parseStatuses(query.statuses, upload.identity_enabled),
    includeIdentity: query.include_identity === 'true',
    sort: query.sort === 'best_status' ? 'best_status' : undefined,
    neutralizeFormulas: query.neutralize_formulas === 'true',
  };
  const plain = !options.statuses && !options.includeIdentity && !options.sort && !options.neutralizeFormulas;
  const { key, stored } = plain ? { key: keys.processed(upload), stored: false } : await slice(upload, options);
  if (!stored) await requireStored(upload, key, 'processed');
  await recordExport(upload.id, nowIso());
  return link(key, filename ?? `${base}_processed.csv`);
}

export async function processedFilteredLink(upload: UploadRecord): Promise<DownloadLink> {
  requireCompleted(upload);
  const { key, stored } = await slice(upload, filteredOptions(upload));
  if (!stored) await requireStored(upload, key, 'processed');
  await recordExport(upload.id, nowIso());
  return link(key, `${upload.original_filename.replace(/\.csv$/i, '')}_processed_filtered.csv`);
}

const filteredOptions = (upload: Pick<UploadRecord, 'identity_enabled'>): SliceOptions => ({ statuses: new Set(upload.identity_enabled ? REACHABLE.identity : REACHABLE.answer_intent) });

/** The deprecated fixed slice (the same object as `statuses=` its statuses), written by finalize. */
export const filteredSliceKey = async (upload: UploadRecord): Promise<string> => (await slice(upload, filteredOptions(upload))).key;

/** The slices downloads ask for most, written when processing finishes (finalize). */
const commonSlices = (upload: Pick<UploadRecord, 'identity_enabled'>): SliceOptions[] => [filteredOptions(upload), { sort: 'best_status' }];

/** The slice every other is read from (slice-index.ts): every row by best status, with the identity column if one can be added. */
const BASE: SliceOptions = { sort: 'best_status', includeIdentity: true };

const sliceName = (options: SliceOptions): string =>
  sha256Hex(JSON.stringify({ s: options.statuses ? [...options.statuses].sort() : null, i: options.includeIdentity ?? false, o: options.sort ?? null, ...(options.neutralizeFormulas ? { f: true } : {}) })).slice(0, 24);

/**
 * What finalize writes: the processed file, the slice base and its index, and the common slices,
 * each to its object a part at a time (never held whole), side by side from as few passes over the
 * original as their orders allow (processed-file.ts `streamTogether`): the files in file order (the
 * processed file, the filtered slice) in one pass, then the sorted ones (the base, the best_status
 * slice) in a pass per status they hold. The base's neutralized lines go to their object as the
 * base is written; its index once it is whole.
 */
export async function writeProcessedAndSlices(upload: UploadRecord, source: ProcessedSource): Promise<void> {
  const bucket = filesBucket();
  const common = commonSlices(upload);
  const inFileOrder = [{}, ...common.filter((o) => !o.sort)];
  const sorted = [BASE, ...common.filter((o) => o.sort)];
  // A sink each for the files written at once, of a part and a line each; reused by the next group.
  const sinks = Array.from({ length: Math.max(inFileOrder.length, sorted.length) }, () => new ByteSink(PART_BYTES + 64 * 1024));
  const target = (key: string, sink: ByteSink, neutralWriter?: ObjectWriter): PartTarget => ({ writer: objectWriter(bucket, key, 'text/csv'), sink, partBytes: PART_BYTES, neutralWriter });
  const sliceKeyOf = (options: SliceOptions): string => keys.slice(upload, sliceName(options));
  await streamTogether(
    source,
    inFileOrder.map((options, i) => ({ options, to: target(i ? sliceKeyOf(options) : keys.processed(upload), sinks[i]!) })),
  );
  // The neutralized lines' JSON, drained a part at a time: small unless many lines are changed.
  const lines = processedLines(new ByteSink(64 * 1024, PART_BYTES + 64 * 1024));
  const neutralWriter = objectWriter(bucket, keys.sliceNeutral(upload), 'application/json');
  await streamTogether(
    source,
    sorted.map((options, i) => (i ? { options, to: target(sliceKeyOf(options), sinks[i]!) } : { options, to: target(sliceKeyOf(options), sinks[i]!, neutralWriter), lines })),
  );
  await putObject(bucket, keys.sliceIndex(upload), serializeSliceIndex(buildSliceIndex(lines, source.results, upload.phone_columns.length, upload.identity_enabled)), 'application/octet-stream');
}

/**
 * A slice's object, built on its first request and kept (same options → same object; names of
 * slices kept before neutralizeFormulas existed are unchanged): read from the slice base with a
 * few ranged GETs (slice-assembly.ts), or the base or the processed file itself when the slice is
 * either. An upload finalized before there was a slice index has it built from the original.
 * The index is asked for with the HEAD that looks for the slice (one round trip, not two, for a
 * slice not built yet) and kept while the container is warm (slice-index-cache.ts).
 * `stored`: the object is known to be there (found by that HEAD, or written now); when false (the
 * slice is the base or the processed file) a link to it must check it first.
 */
async function slice(upload: UploadRecord, options: SliceOptions): Promise<{ key: string; stored: boolean }> {
  const key = keys.slice(upload, sliceName(options));
  const bucket = filesBucket();
  const indexed = storedIndex(upload);
  if (await objectExists(bucket, key)) return { key, stored: true };
  const stored = await indexed;
  if (!stored) {
    await putObject(bucket, key, await sliceFromOriginal(upload, options), 'text/csv');
    return { key, stored: true };
  }
  const { index } = stored;
  const lines = sliceLines(index, options);
  const base = keys.slice(upload, sliceName(BASE));
  const same = storedAs(index, lines, options);
  if (same) return { key: same === 'base' ? base : keys.processed(upload), stored: false };
  const pieces = await Promise.all(byteRanges(index, lines).map(async ([from, to]) => ({ from, bytes: await getObjectRange(bucket, base, from, to) }))).catch((error: unknown) => {
    throw isMissingObject(error) ? storedFileGone(upload, base, 'processed') : error;
  });
  // The lines neutralize_formulas changes, told from the base's own (slice-neutral.ts); finalize's object only when they cannot be.
  const neutral = options.neutralizeFormulas && index.neutralLines > 0 ? (neutralLinesFromBase(index, lines, pieces) ?? (await neutralLines(upload))) : undefined;
  await putObject(bucket, key, assembleSlice(index, lines, pieces, options, neutral), 'text/csv');
  return { key, stored: true };
}

/** The upload's slice index, or null when finalize wrote none (read once while the container keeps it). */
function storedIndex(upload: UploadRecord): Promise<{ index: SliceIndex; bytes: number } | null> {
  const bucket = filesBucket();
  const key = keys.sliceIndex(upload);
  const read = sliceIndexMemo().get(`${bucket}/${key}`, async () => {
    const stored = await getObject(bucket, key);
    return stored ? { index: parseSliceIndex(stored), bytes: stored.length } : null;
  });
  // Not awaited when the slice exists: its failure is the next request's to meet, not an unhandled one.
  read.catch(() => {});
  return read;
}

async function neutralLines(upload: UploadRecord): Promise<NeutralLines> {
  const key = keys.sliceNeutral(upload);
  const stored = await getObject(filesBucket(), key);
  if (!stored) throw storedFileGone(upload, key, 'processed');
  return JSON.parse(stored.toString('utf8')) as NeutralLines;
}

async function sliceFromOriginal(upload: UploadRecord, options: SliceOptions): Promise<Buffer> {
  const bucket = filesBucket();
  const [original, stored] = await Promise.all([getObject(bucket, keys.original(upload)), getObject(bucket, keys.results(upload))]);
  if (!original) throw storedFileGone(upload, keys.original(upload), 'original');
  if (!stored) throw storedFileGone(upload, keys.results(upload), 'processed');
  const { layout, skip } = await loadLayout(upload, original);
  return writeProcessedBytes(original, skip, layout, upload.phone_columns, upload.identity_enabled, parseResults(stored), options);
}

function requireCompleted(upload: UploadRecord): void {
  if (upload.status !== 'completed' || !upload.processed_available) {
    // A failed upload never has one (its credits were refunded); anything else may still get it.
    if (upload.status === 'failed') throw new Conflict('The upload failed, so it has no processed file; its original is still available (download/original)');
    throw new Conflict(`The processed file is not available yet: the upload is ${upload.status === 'charging' ? 'ready_for_processing' : upload.status}`);
  }
}
