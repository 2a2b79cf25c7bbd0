export interface Me {
  user: { id: string; email: string };
  organization: { id: string; name: string; subscription_active: boolean };
  role: 'owner' | 'member';
}

export interface ResultSummary {
  format: 'identity' | 'answer_intent';
  total_rows: number;
  status_counts: Record<string, number>;
  identity_counts: Record<string, number>;
  simulated: boolean;
}

export interface Upload {
  id: string;
  status: string;
  source: string;
  original_filename: string;
  valid_row_count: number | null;
  valid_number_count: number | null;
  invalid_row_count: number | null;
  credits_required: number | null;
  credits_charged: number | null;
  credits_refunded: number | null;
  validation_tier: string;
  identity_enabled: boolean;
  result_summary: ResultSummary | null;
  error_message: string | null;
  created_at: string;
}

export interface Draft {
  id: string;
  filename: string;
  file_size_bytes: number;
  /** The file's size as sent, when the console converted it. */
  sent_size_bytes?: number | null;
  status: 'pending_mapping' | 'validating' | 'validation_failed' | 'awaiting_confirmation' | 'confirming' | 'confirmed';
  header: string[];
  preview: string[][];
  total_rows: number;
  /** Rows validation has checked so far (absent before the first validation). */
  validated_rows?: number;
  suggested: { phone_columns: string[]; full_name_column?: string; first_name_column?: string; last_name_column?: string };
  mapping: { phoneColumns: string[]; fullNameColumn?: string; firstNameColumn?: string; lastNameColumn?: string } | null;
  validation: {
    total_rows: number;
    valid_row_count: number;
    valid_number_count: number;
    invalid_count: number;
    duplicate_count: number;
    identity: boolean;
    price: { standard: number; max: number };
  } | null;
  failure: { status: number; detail: unknown } | null;
  invalid_cells: { row: number; column: string; value: string; reason: string }[];
  import?: ImportFormat;
  created_at: string;
}

/** How the console read the file (lambdas/console/import-format.ts). */
export interface ImportFormat {
  delimiter: ',' | ';' | '\t' | '|';
  encoding: 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
  header_row: boolean;
  detected: { delimiter: ImportFormat['delimiter']; encoding: ImportFormat['encoding']; header_row: boolean };
  first_row_looks_like_data: boolean;
  converted: boolean;
  /** Set when the file was an Excel workbook: the worksheet read. */
  workbook?: { sheet: string; formulas_without_result?: number };
  rows_problem: { kind: 'too_few' | 'too_many'; min: number; max: number; message: string } | null;
}

export interface ApiKey {
  id: string;
  /** The owner's label for it; null when none was given. */
  name: string | null;
  display_prefix: string;
  created_by: string | null;
  created_by_user_id: string;
  created_at: string;
  expires_at: string | null;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface Member {
  user_id: string;
  email: string | null;
  role: string;
  created_at: string;
}

/** How far processing is (lambdas/console/upload-progress.ts), derived from the upload's chunks. */
/** A console upload the console converted: the file as the person sent it (GET /console/api/uploads/{id}'s `sent`). */
export interface SentFile {
  filename: string;
  workbook_sheet: string | null;
  encoding: string;
  delimiter: string;
}

export interface Progress {
  chunks_total: number;
  chunks_done: number;
  /** What numbers_done and numbers_total count: distinct numbers, or with identity distinct number-and-name pairs. */
  unit: 'numbers' | 'number_name_pairs';
  numbers_done: number;
  numbers_total: number;
  percent: number;
  eta_seconds: number | null;
  /** The file's rows, known before the result summary. */
  rows_total: number;
}
