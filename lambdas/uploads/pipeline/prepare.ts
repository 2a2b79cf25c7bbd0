import { nowIso } from '../../platform/clock';
import { crashPoint } from '../../platform/crash-point';
import { filesBucket, getObject, putObject } from '../../platform/blob';
import { planUpload, type WorkRow } from '../plan';
import { readCsv } from '../create-upload';
import { classifyKey } from '../results';
import { keys, type UploadRecord } from '../upload';
import { getUpload, transitionUpload } from '../upload-repository';
import { config } from '../../platform/config';
import { hasUtf8Bom, layoutOf, parseWork, type UploadWork } from '../work-file';

/**
 * An upload still `processing` this long after it started is failed and refunded by recovery
 * (250,000 numbers take minutes; a real provider's rate limit can stretch that to about an hour).
 */
export const processingBoundMs = (): number => config().UPLOAD_PROCESSING_BOUND_MS;


export interface ChunkItem {
  key: string;
  e164: string;
  name?: WorkRow['name'];
}

/**
 * The upload's rows and record spans as the create call computed them (work-file.ts). An upload
 * created before that file existed has its stored original read again by the same rules.
 */
export async function loadUploadWork(upload: UploadRecord): Promise<UploadWork> {
  const bucket = filesBucket();
  const stored = await getObject(bucket, keys.work(upload));
  if (stored) return parseWork(stored.toString('utf8'), upload.phone_columns.length);
  const bytes = await getObject(bucket, keys.original(upload));
  if (!bytes) throw new Error(`upload ${upload.id}: original missing`);
  const parsed = readCsv(bytes);
  const [header, ...rows] = parsed.records;
  const mapping = { phoneColumns: upload.phone_columns, fullNameColumn: upload.name_columns?.full, firstNameColumn: upload.name_columns?.first, lastNameColumn: upload.name_columns?.last };
  const layout = layoutOf(parsed);
  layout.bom ||= hasUtf8Bom(bytes);
  return { rows: planUpload(header!.fields, rows.map((r) => r.fields), mapping, { minimum: 0 }).rows, layout, firstCells: rows.map((r) => r.fields[0] ?? '') };
}

/** The upload's rows as the create call planned them. */
export async function loadWork(upload: UploadRecord): Promise<WorkRow[]> {
  return (await loadUploadWork(upload)).rows;
}

/** The distinct things to classify, in a deterministic order (so a retried step writes the same chunks). */
export function distinctItems(rows: WorkRow[], identity: boolean): ChunkItem[] {
  const seen = new Set<string>();
  const items: ChunkItem[] = [];
  for (const row of rows) {
    for (const n of row.numbers) {
      if (!n) continue;
      const key = classifyKey(n, row.name, identity);
      if (seen.has(key)) continue;
      seen.add(key);
      items.push(identity && row.name ? { key, e164: n, name: row.name } : { key, e164: n });
    }
  }
  return items;
}

/**
 * First step: `ready_for_processing → processing` (the workflow has started), then the distinct
 * numbers are written to S3 in chunks; only the chunk numbers travel in the state (256 KB limit).
 */
export async function prepare(input: { upload_id: string }): Promise<{ chunks: number[] }> {
  const upload = await getUpload(input.upload_id);
  if (!upload) throw new Error(`upload ${input.upload_id} not found`);
  if (upload.status === 'ready_for_processing') {
    const at = nowIso();
    await transitionUpload(upload.id, ['ready_for_processing'], 'processing', {}, at, new Date(Date.parse(at) + processingBoundMs()).toISOString());
  } else if (upload.status !== 'processing') {
    throw new Error(`upload ${upload.id} is ${upload.status}; nothing to process`);
  }
  crashPoint('pipeline.after-start');
  const items = distinctItems(await loadWork(upload), upload.identity_enabled);
  const bucket = filesBucket();
  const chunks: number[] = [];
  const chunkSize = config().UPLOAD_CHUNK_SIZE;
  for (let i = 0, n = 0; i < items.length; i += chunkSize, n++) {
    await putObject(bucket, keys.chunk(upload, n), JSON.stringify(items.slice(i, i + chunkSize)), 'application/json');
    chunks.push(n);
  }
  return { chunks };
}

export const handler = prepare;
