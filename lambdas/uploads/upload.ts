// The Upload resource as the spec defines it, plus what the service keeps privately.

export type UploadStatus =
  | 'pending_mapping'
  | 'validating'
  | 'validation_failed'
  | 'awaiting_confirmation'
  | 'ready_for_processing'
  | 'processing'
  | 'completed'
  | 'failed'
  | 'cancelled';

export interface ResultSummary {
  format: 'identity' | 'answer_intent';
  total_rows: number;
  status_counts: Record<string, number>;
  identity_counts: Record<string, number>;
  has_answer_intent_column: boolean;
  has_identity_column: boolean;
  /** Results from the simulator provider: development data, not real signals. */
  simulated: boolean;
}

export interface UploadRecord {
  id: string;
  user_id: string;
  organization_id: string;
  original_filename: string;
  file_size_bytes: number | null;
  /** `charging` is internal: the record exists, the credits are being taken; never shown. */
  status: UploadStatus | 'charging';
  valid_row_count: number | null;
  valid_number_count: number | null;
  invalid_row_count: number | null;
  total_rows: number;
  credits_required: number | null;
  credits_charged: number | null;
  credits_refunded: number | null;
  source: 'web' | 'api' | 'api_pool';
  api_key_id: string | null;
  skip_mobile_lookup: boolean;
  validation_tier: 'standard' | 'max';
  identity_enabled: boolean;
  phone_columns: string[];
  /** The name columns mapped at creation (identity), to re-read the original in the pipeline. */
  name_columns: { full?: string; first?: string; last?: string };
  result_summary: ResultSummary | null;
  export_count: number;
  last_exported_at: string | null;
  processed_available: boolean;
  error_message: string | null;
  exceeded_daily_limit: boolean | null;
  created_at: string;
  updated_at: string;
  /** Internal, set at completion (never in the Upload object): paid lookups made, answers from the lookup cache, failed lookups. */
  lookups_paid?: number;
  lookups_cached?: number;
  lookups_failed?: number;
}

export function toPublicUpload(upload: UploadRecord): Record<string, unknown> {
  return {
    id: upload.id,
    user_id: upload.user_id,
    organization_id: upload.organization_id,
    original_filename: upload.original_filename,
    file_size_bytes: upload.file_size_bytes,
    status: upload.status === 'charging' ? 'ready_for_processing' : upload.status,
    valid_row_count: upload.valid_row_count,
    valid_number_count: upload.valid_number_count,
    invalid_row_count: upload.invalid_row_count,
    credits_required: upload.credits_required,
    credits_charged: upload.credits_charged,
    credits_refunded: upload.credits_refunded,
    source: upload.source,
    // Pool uploads stored before 2026-11-25 carry the placeholder key id `contacts-pool`.
    api_key_id: upload.source === 'api_pool' ? null : upload.api_key_id,
    skip_mobile_lookup: upload.skip_mobile_lookup,
    validation_tier: upload.validation_tier,
    identity_enabled: upload.identity_enabled,
    result_summary: upload.result_summary,
    export_count: upload.export_count,
    last_exported_at: upload.last_exported_at,
    processed_available: upload.processed_available,
    // Generated on demand from the processed file, so available exactly when it is.
    processed_filtered_available: upload.processed_available,
    error_message: upload.error_message,
    exceeded_daily_limit: upload.exceeded_daily_limit,
    created_at: upload.created_at,
    updated_at: upload.updated_at,
  };
}

/** Storage keys (never exposed). */
export const keys = {
  original: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/original.csv`,
  /** Where the chunks and their results are (listed for progress: lambdas/console/upload-progress.ts). */
  chunks: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/chunks/`,
  chunk: (u: Pick<UploadRecord, 'organization_id' | 'id'>, n: number) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.json`,
  chunkResult: (u: Pick<UploadRecord, 'organization_id' | 'id'>, n: number) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.result.json`,
  /** A chunk's answers so far, folded at the end of each ClassifyChunk invocation (chunk-checkpoint.ts). */
  chunkCheckpoint: (u: Pick<UploadRecord, 'organization_id' | 'id'>, n: number) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.checkpoint.json`,
  /** The answers one checkpoint write added since the folded checkpoint, numbered from it. */
  chunkCheckpointPart: (u: Pick<UploadRecord, 'organization_id' | 'id'>, n: number, seq: number) => `uploads/${u.organization_id}/${u.id}/chunks/${n}.checkpoint/${String(seq).padStart(6, '0')}.json`,
  processed: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/processed.csv`,
  /** Rows, numbers and record spans computed at create (work-file.ts). */
  work: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/work.json`,
  /** Where each record sits in the original, computed at create (work-file.ts). */
  layout: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/layout.json`,
  /** Which distinct item each cell is, written by prepare (pipeline/cell-items.ts). */
  cellItems: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/cell-items.bin`,
  results: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/results.json`,
  /** A contacts' pool upload's numbers the provider could not look up, written by finalize (pool.ts: poolLookupFailures). */
  lookupFailures: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/lookup-failures.json`,
  /** Where each processed line sits and what each row holds, written by finalize (slice-index.ts). */
  sliceIndex: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/slice-index.bin`,
  /** The lines of the slice base neutralize_formulas changes (slice-index.ts). */
  sliceNeutral: (u: Pick<UploadRecord, 'organization_id' | 'id'>) => `uploads/${u.organization_id}/${u.id}/slice-neutral.json`,
  slice: (u: Pick<UploadRecord, 'organization_id' | 'id'>, name: string) => `uploads/${u.organization_id}/${u.id}/slices/${name}.csv`,
};
