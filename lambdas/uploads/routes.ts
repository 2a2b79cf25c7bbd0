import * as z from 'zod';
import { authErrors, byIdParams, ErrorEnvelope, rateLimitErrors } from '../platform/http/common-schemas';
import type { RouteSpec } from '../platform/http/route-spec';
import { JsonUploadBody, MultipartFields } from './request';

export const DEFAULT_PAGE_SIZE = 20;

const ResultSummary = z.object({
  format: z.enum(['identity', 'answer_intent']),
  total_rows: z.number().int(),
  status_counts: z.record(z.string(), z.number().int()),
  identity_counts: z.record(z.string(), z.number().int()),
  has_answer_intent_column: z.boolean(),
  has_identity_column: z.boolean(),
  simulated: z.boolean().describe('true when the results came from the simulator provider (development data, not real signals)'),
});

export const Upload = z
  .object({
    id: z.string().uuid(),
    user_id: z.string().uuid(),
    organization_id: z.string().uuid().nullable(),
    original_filename: z.string(),
    file_size_bytes: z.number().int().nullable(),
    status: z.enum(['pending_mapping', 'validating', 'validation_failed', 'awaiting_confirmation', 'ready_for_processing', 'processing', 'completed', 'failed', 'cancelled']),
    valid_row_count: z.number().int().nullable(),
    valid_number_count: z.number().int().nullable(),
    invalid_row_count: z.number().int().nullable(),
    credits_required: z.number().int().nullable(),
    credits_charged: z.number().int().nullable(),
    credits_refunded: z.number().int().nullable(),
    source: z.enum(['web', 'api', 'api_pool']).nullable(),
    api_key_id: z.string().nullable(),
    skip_mobile_lookup: z.boolean().nullable(),
    validation_tier: z.enum(['standard', 'max']).nullable(),
    identity_enabled: z.boolean().nullable(),
    result_summary: ResultSummary.nullable(),
    export_count: z.number().int(),
    last_exported_at: z.string().nullable(),
    processed_available: z.boolean(),
    processed_filtered_available: z.boolean(),
    error_message: z.string().nullable(),
    exceeded_daily_limit: z.boolean().nullable(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: 'Upload' });

export const DownloadLink = z
  .object({ url: z.string().describe('signed GET link'), expires_at: z.number().int().describe('Unix seconds; the link answers 403 after it') })
  .meta({ id: 'DownloadLink' });

/**
 * The multipart form of POST /api/v1/uploads, for the OpenAPI document: the fields the handler
 * validates with `MultipartFields`, described, plus the file part.
 */
const f = MultipartFields.shape;
const MultipartUploadForm = z
  .object({
    file: z.string().meta({ contentMediaType: 'text/csv', description: 'The CSV file, with a header row. A request passes API Gateway (10 MB) and a Lambda event (6 MB, this body base64 encoded), so a file over about 4.4 MB gets a 413: stage it with POST /api/v1/uploads/staging (up to 100 MB)' }),
    phone_column: f.phone_column.describe('Name of the phone column (one of phone_column / phone_columns is required)'),
    phone_columns: f.phone_columns.describe('Comma-separated names of up to 10 phone columns; when phone_column is given too it must be among them'),
    skip_mobile_lookup: f.skip_mobile_lookup.describe('Skip the paid line-type lookup (true or false, also 1 or 0); default false'),
    validation_tier: f.validation_tier.describe('standard (1 credit per number) or max (ceil(n × 1.5)); default standard'),
    filename_override: f.filename_override.describe('Used as original_filename instead of the file part’s own name'),
    full_name_column: f.full_name_column.describe('Column holding the full name; enables Identity (use this OR first_name_column with last_name_column)'),
    first_name_column: f.first_name_column.describe('Column holding the first name; with last_name_column enables Identity'),
    last_name_column: f.last_name_column.describe('Column holding the last name; with first_name_column enables Identity'),
  })
  .meta({ id: 'CreateUploadMultipart', description: 'multipart/form-data fields of POST /api/v1/uploads' });

const IdParams = byIdParams('id', 'Upload not found', 'id of an upload of the key’s organization');
const notFound = { 404: { description: 'Unknown or another organization’s upload', schema: ErrorEnvelope } };

function download(name: string, operationId: string, summary: string, query?: z.ZodType) {
  return {
    method: 'GET',
    path: `/api/v1/uploads/{id}/download/${name}`,
    fn: 'uploads',
    operationId,
    summary,
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { params: IdParams, ...(query ? { query } : {}) },
    responses: {
      200: { description: 'A link valid for one hour', schema: DownloadLink },
      400: { description: 'Unrecognized status or other invalid parameter', schema: ErrorEnvelope },
      409: { description: 'The file is not available yet (processing not completed)', schema: ErrorEnvelope },
      ...notFound,
      ...authErrors,
    },
  } as const satisfies RouteSpec;
}

export const uploadsRoutes = {
  create: {
    method: 'POST',
    path: '/api/v1/uploads',
    fn: 'uploads',
    operationId: 'createUpload',
    summary: 'Create an upload from a CSV (multipart), a JSON list, or a staged object',
    tags: ['uploads'],
    scope: 'uploads:write',
    rateLimited: true,
    subscription: true,
    request: { body: JsonUploadBody, contentTypes: ['multipart/form-data', 'application/json'], forms: { 'multipart/form-data': MultipartUploadForm } },
    responses: {
      200: { description: 'Upload created in ready_for_processing; credits charged', schema: Upload },
      400: { description: 'Malformed input or violated constraint', schema: ErrorEnvelope },
      402: { description: 'Insufficient credits', schema: ErrorEnvelope },
      403: { description: 'No active subscription', schema: ErrorEnvelope },
      409: { description: 'staged_upload_id already used: a staged file makes one upload; nothing charged', schema: ErrorEnvelope },
      413: { description: 'CSV over 100 MB, or over 250,000 entries', schema: ErrorEnvelope },
      415: { description: 'Content-Type other than multipart/form-data or application/json', schema: ErrorEnvelope },
      422: { description: 'Fewer than 100 valid numbers (min_contacts_required)', schema: ErrorEnvelope },
      ...authErrors,
      ...rateLimitErrors,
    },
  },
  stage: {
    method: 'POST',
    path: '/api/v1/uploads/staging',
    fn: 'uploads',
    operationId: 'stageUpload',
    summary: 'Get a presigned POST for a large CSV or JSON body (up to 100 MB); then create the upload with staged_upload_id',
    tags: ['uploads'],
    scope: 'uploads:write',
    rateLimited: true,
    subscription: true,
    request: {
      query: z.object({
        format: z.enum(['csv', 'json'], { error: 'format must be csv or json' }).default('csv').describe('csv: the file is a CSV (the create call gives the mapping); json: the file is a JSON create body (phone_numbers or contacts)'),
      }),
    },
    responses: {
      200: {
        description: 'Where and how to POST the file',
        schema: z.object({ staged_upload_id: z.string().uuid(), format: z.enum(['csv', 'json']), url: z.string(), fields: z.record(z.string(), z.string()), expires_at: z.number().int(), max_bytes: z.number().int() }),
      },
      400: { description: 'Invalid query', schema: ErrorEnvelope },
      ...authErrors,
      ...rateLimitErrors,
    },
  },
  list: {
    method: 'GET',
    path: '/api/v1/uploads',
    fn: 'uploads',
    operationId: 'listUploads',
    summary: 'List uploads, newest first',
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { query: z.object({ limit: z.coerce.number().int().min(1).max(100).default(DEFAULT_PAGE_SIZE), cursor: z.string().max(2048).optional() }) },
    responses: { 200: { description: 'A page', schema: z.object({ data: z.array(Upload), next_cursor: z.string().nullable() }) }, 400: { description: 'Invalid query', schema: ErrorEnvelope }, ...authErrors },
  },
  get: {
    method: 'GET',
    path: '/api/v1/uploads/{id}',
    fn: 'uploads',
    operationId: 'getUpload',
    summary: 'One upload',
    tags: ['uploads'],
    scope: 'uploads:read',
    request: { params: IdParams },
    responses: { 200: { description: 'Upload', schema: Upload }, ...notFound, ...authErrors },
  },
  remove: {
    method: 'DELETE',
    path: '/api/v1/uploads/{id}',
    fn: 'uploads',
    operationId: 'deleteUpload',
    summary: 'Removed: always 410 Gone, changes nothing',
    tags: ['uploads'],
    rateLimited: true,
    // Any value, UUID or not: the answer is always 410 (spec), so the id is not validated.
    request: { params: z.object({ id: z.string().describe('any upload id; the answer is always 410') }) },
    responses: { 410: { description: 'Gone', schema: ErrorEnvelope }, ...authErrors },
  },
  downloadOriginal: download('original', 'downloadOriginal', 'Signed link to the original file'),
  downloadProcessed: download(
    'processed',
    'downloadProcessed',
    'Signed link to the processed file, or to a slice of it',
    z.object({
      statuses: z.string().max(2000).optional().describe('comma-separated statuses from the vocabulary of result_summary.format'),
      include_identity: z.enum(['true', 'false']).optional(),
      sort: z.enum(['best_status', 'original']).optional().describe('best_status ranks each contact by its best number'),
      neutralize_formulas: z
        .enum(['true', 'false'])
        .optional()
        .describe(
          "true: the customer's cells that start with = + - @, tab or CR are written as OWASP recommends against CSV injection: prefixed with a single quote and quoted (so +12125550143 becomes \"'+12125550143\"). Default false: the customer's cells are kept exactly; the service's own cells are always safe",
        ),
    }),
  ),
  downloadProcessedFiltered: download('processed-filtered', 'downloadProcessedFiltered', 'Deprecated: the fixed reachable slice'),
} satisfies Record<string, RouteSpec>;
